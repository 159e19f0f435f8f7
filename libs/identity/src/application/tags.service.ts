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
import { TagRepository } from '../domain/tag.repository';
import { tagView, TagJson } from '../views/tag.view';

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
    private readonly tags: TagRepository,
    private readonly clock: Clock,
  ) {}

  /** Live tags by name; archived ones only when asked (the dashboard's archive view). */
  async list(actor: Principal, includeArchived = false): Promise<ListResult<TagJson>> {
    const tags = await this.tags.byNameInOrg(actor.organizationId, includeArchived);
    const counts = await this.tags.leadCounts(
      actor.organizationId,
      tags.map((tag) => tag.id),
    );
    return wholeList(tags.map((tag) => tagView(tag, counts.get(tag.id) ?? 0)));
  }

  async create(actor: Principal, input: TagChange & { name: string }): Promise<TagJson> {
    const tag = new Tag(
      { organizationId: actor.organizationId, createdBy: actor.userId, ...input },
      this.clock.now(),
    );
    await this.save(tag);
    return tagView(tag, 0);
  }

  async change(actor: Principal, tagId: string, input: TagChange): Promise<TagJson> {
    const tag = await this.findEditable(actor, tagId);
    tag.change(input, this.clock.now());
    await this.save(tag);
    return tagView(tag, (await this.tags.leadCounts(actor.organizationId, [tag.id])).get(tag.id) ?? 0);
  }

  async archive(actor: Principal, tagId: string): Promise<TagJson> {
    const tag = await this.findEditable(actor, tagId);
    tag.archive(this.clock.now());
    await this.em.flush();
    return tagView(tag, (await this.tags.leadCounts(actor.organizationId, [tag.id])).get(tag.id) ?? 0);
  }

  /** Which of `tagIds` are live tags of the agency (for setting a lead's tags). */
  liveTagIds(organizationId: string, tagIds: string[]): Promise<Set<string>> {
    return this.tags.liveIdsAmong(organizationId, tagIds);
  }

  private async findEditable(actor: Principal, tagId: string): Promise<Tag> {
    const tag = await this.tags.findLiveInOrg(actor.organizationId, tagId);
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
