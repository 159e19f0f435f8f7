import { EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import {
  Clock,
  conflict,
  forbidden,
  isAdmin,
  ListResult,
  notFound,
  Principal,
  wholeList,
} from '@app/platform';
import { Tag } from '../domain/tag.entity';
import { TagView, tagView } from './views';

export interface TagChange {
  name?: string;
  color?: string;
}

const nameTaken = () => conflict('A tag with this name already exists.');

/** Tags of an agency. Anyone creates; the creator or an admin renames and archives. */
@Injectable()
export class TagsService {
  constructor(
    private readonly em: EntityManager,
    private readonly clock: Clock,
  ) {}

  /** Live tags by name; archived ones only when asked (the dashboard's archive view). */
  async list(actor: Principal, includeArchived = false): Promise<ListResult<TagView>> {
    const tags = await this.em.find(
      Tag,
      { organizationId: actor.organizationId, ...(includeArchived ? {} : { archivedAt: null }) },
      { orderBy: { name: 'asc' } },
    );
    const counts = await this.leadCounts(
      actor.organizationId,
      tags.map((tag) => tag.id),
    );
    return wholeList(tags.map((tag) => tagView(tag, counts.get(tag.id) ?? 0)));
  }

  async create(actor: Principal, input: TagChange & { name: string }): Promise<TagView> {
    const tag = new Tag(
      { organizationId: actor.organizationId, createdBy: actor.userId, ...input },
      this.clock.now(),
    );
    await this.save(tag);
    return tagView(tag, 0);
  }

  async change(actor: Principal, tagId: string, input: TagChange): Promise<TagView> {
    const tag = await this.findEditable(actor, tagId);
    tag.change(input, this.clock.now());
    await this.save(tag);
    return tagView(tag, (await this.leadCounts(actor.organizationId, [tag.id])).get(tag.id) ?? 0);
  }

  async archive(actor: Principal, tagId: string): Promise<TagView> {
    const tag = await this.findEditable(actor, tagId);
    tag.archive(this.clock.now());
    await this.em.flush();
    return tagView(tag, (await this.leadCounts(actor.organizationId, [tag.id])).get(tag.id) ?? 0);
  }

  /** Which of `tagIds` are live tags of the agency (for setting a lead's tags). */
  async liveTagIds(organizationId: string, tagIds: string[]): Promise<Set<string>> {
    if (tagIds.length === 0) return new Set();
    const tags = await this.em.find(
      Tag,
      { organizationId, id: { $in: tagIds }, archivedAt: null },
      { fields: ['id'] },
    );
    return new Set(tags.map((tag) => tag.id));
  }

  /** Leads per tag over the whole agency: the CRM's trigger-kept counters (read-only here). */
  private async leadCounts(organizationId: string, tagIds: string[]): Promise<Map<string, number>> {
    if (tagIds.length === 0) return new Map();
    const rows = await this.em.execute<{ tag_id: string; n: string }[]>(
      'select tag_id, n from tag_lead_counts where organization_id = ? and tag_id = any(?::uuid[])',
      [organizationId, `{${tagIds.join(',')}}`],
    );
    return new Map(rows.map((row) => [row.tag_id, Number(row.n)]));
  }

  private async findEditable(actor: Principal, tagId: string): Promise<Tag> {
    const tag = await this.em.findOne(Tag, {
      id: tagId,
      organizationId: actor.organizationId,
      archivedAt: null,
    });
    if (!tag) throw notFound('Tag');
    if (tag.createdBy !== actor.userId && !isAdmin(actor))
      throw forbidden('Only the tag creator or an admin can change it.');
    return tag;
  }

  private async save(tag: Tag): Promise<void> {
    try {
      await this.em.persist(tag).flush();
    } catch (err) {
      if (err instanceof UniqueConstraintViolationException) throw nameTaken();
      throw err;
    }
  }
}
