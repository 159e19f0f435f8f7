import { EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { v7 as uuidv7 } from 'uuid';
import { MembersService } from '@app/identity';
import { ListingCards, ListingSources, type ListingRef } from '@app/listings';
import {
  cappedResult,
  Clock,
  conflict,
  isUuid,
  ListResult,
  notFound,
  preparedRows,
  Principal,
  validationFailed,
} from '@app/platform';
import {
  COLLECTION_DUPLICATE,
  COLLECTION_FULL,
  COLLECTION_LIMITS,
  CollectionItemSnapshot,
  OFF_MARKET_STATUSES,
  snapshotOf,
} from '../domain/collection';
import type { CollectionItemJson, CollectionJson, CollectionRowJson } from '../views/collection.view';
import {
  bumpCollectionStatement,
  CollectionItemRow,
  CollectionRow,
  liveFeedRowsStatement,
  memberCollectionsStatement,
  memberIdsStatement,
  newestItemsStatement,
  sameItemStatement,
  visibleCollectionStatement,
} from './collections.sql';

export interface ItemInput {
  source: string;
  id: string;
  country?: string;
}

const iso = (value: Date | string): string => new Date(value).toISOString();

/**
 * Collections (INTERFACES.md "Brochures and network"): session writes and `/v1` reads. Only the
 * collection's members (the creator always is one) see or change it; anyone else gets 404
 * `Collection not found.`. Adding a home reads it once through `ListingSources` (outside the
 * transaction: the portal allowance is reserved before any write) and keeps a small copy; reads
 * decide `unavailable` from stored state only (the listings table for internal and feed homes, the
 * copy for portal homes), never reading a portal again. Every change bumps `updatedAt`.
 */
@Injectable()
export class CollectionsService {
  constructor(
    private readonly em: EntityManager,
    private readonly sources: ListingSources,
    private readonly cards: ListingCards,
    private readonly members: MembersService,
    private readonly clock: Clock,
  ) {}

  async create(actor: Principal, name: string): Promise<CollectionJson> {
    const id = uuidv7();
    await this.em.transactional(async (em) => {
      const now = this.clock.now();
      await preparedRows(em, {
        sql: `insert into collections (id, organization_id, name, created_by, created_at, updated_at)
              values (?::uuid, ?::uuid, ?, ?::uuid, ?, ?)`,
        params: [id, actor.organizationId, name, actor.userId, now, now],
      });
      await preparedRows(em, {
        sql: `insert into collection_members (collection_id, user_id) values (?::uuid, ?::uuid)`,
        params: [id, actor.userId],
      });
    });
    return this.detail(actor, id);
  }

  async rename(actor: Principal, id: string, name: string): Promise<CollectionJson> {
    await this.em.transactional(async (em) => {
      await this.locked(em, actor, id);
      await preparedRows(em, {
        sql: `update collections set name = ? where id = ?::uuid`,
        params: [name, id],
      });
      await preparedRows(em, bumpCollectionStatement(id, this.clock.now()));
    });
    return this.detail(actor, id);
  }

  async delete(actor: Principal, id: string): Promise<void> {
    await this.em.transactional(async (em) => {
      await this.locked(em, actor, id);
      await preparedRows(em, { sql: `delete from collections where id = ?::uuid`, params: [id] });
    });
  }

  /** `userIds` replace the members; the creator always stays. People of the caller's agency only. */
  async setMembers(actor: Principal, id: string, userIds: string[]): Promise<CollectionJson> {
    const wanted = [...new Set(userIds)];
    const known = await this.members.existingMemberIds(actor.organizationId, wanted.filter(isUuid));
    const issues = userIds
      .map((userId, i) => ({ userId, i }))
      .filter(({ userId }) => !known.has(userId))
      .map(({ i }) => ({ path: `userIds[${i}]`, message: 'not a person of your organization' }));
    if (issues.length > 0) throw validationFailed(issues);
    const created = await this.em.transactional(async (em) => {
      const collection = await this.locked(em, actor, id);
      const keep = [...new Set([...wanted, collection.created_by])];
      await preparedRows(em, {
        sql: `delete from collection_members where collection_id = ?::uuid and not (user_id = any(?::uuid[]))`,
        params: [id, `{${keep.join(',')}}`],
      });
      await preparedRows(em, {
        sql: `insert into collection_members (collection_id, user_id)
              select ?::uuid, u from unnest(?::uuid[]) as u
              on conflict do nothing`,
        params: [id, `{${keep.join(',')}}`],
      });
      await preparedRows(em, bumpCollectionStatement(id, this.clock.now()));
      return collection;
    });
    // the caller may have left it: the answer is the collection as it now is
    const [row] = await preparedRows<CollectionRow>(
      this.em,
      visibleCollectionStatement(actor.organizationId, created.created_by, id),
    );
    if (!row) throw notFound('Collection');
    return this.render(actor.organizationId, row);
  }

  async addItem(actor: Principal, id: string, input: ItemInput): Promise<CollectionItemJson> {
    // cheap refusals first, so no portal call is spent on an add that cannot happen
    const collection = await this.visible(this.em, actor, id);
    if (collection.home_count >= COLLECTION_LIMITS.items) throw conflict(COLLECTION_FULL);
    const ref: ListingRef = { source: input.source, id: input.id, country: input.country };
    const [resolved] = await this.sources.resolve(actor.organizationId, [ref]);
    if (!resolved.ok) {
      const path =
        resolved.reason === 'country_required'
          ? 'country'
          : resolved.reason === 'unknown_source'
            ? 'source'
            : 'id';
      const message =
        resolved.reason === 'country_required'
          ? 'a portal home needs one of the portal’s countries'
          : resolved.reason === 'unknown_source'
            ? 'unknown source'
            : 'no readable home with this id';
      throw validationFailed([{ path, message }]);
    }
    const stored = resolved.listing.ref as ListingRef | undefined;
    const country = stored?.country ?? null;
    const snapshot = snapshotOf(resolved.listing);
    const itemId = uuidv7();
    const now = this.clock.now();
    try {
      await this.em.transactional(async (em) => {
        const locked = await this.locked(em, actor, id);
        if (locked.home_count >= COLLECTION_LIMITS.items) throw conflict(COLLECTION_FULL);
        const same = await preparedRows(em, sameItemStatement(id, input.source, input.id, country));
        if (same.length > 0) throw conflict(COLLECTION_DUPLICATE);
        await preparedRows(em, {
          sql: `insert into collection_items (id, collection_id, source, source_id, country, snapshot, created_by, created_at)
                values (?::uuid, ?::uuid, ?, ?, ?, ?::jsonb, ?::uuid, ?)`,
          params: [itemId, id, input.source, input.id, country, JSON.stringify(snapshot), actor.userId, now],
        });
        await preparedRows(em, bumpCollectionStatement(id, now));
      });
    } catch (caught) {
      if (caught instanceof UniqueConstraintViolationException) throw conflict(COLLECTION_DUPLICATE);
      throw caught;
    }
    return itemJson(
      {
        id: itemId,
        source: input.source,
        source_id: input.id,
        country,
        snapshot: { ...snapshot },
        created_at: now,
      },
      snapshot,
    );
  }

  async removeItem(actor: Principal, id: string, itemId: string): Promise<void> {
    await this.em.transactional(async (em) => {
      await this.locked(em, actor, id);
      const removed = await preparedRows(em, {
        sql: `delete from collection_items where id = ?::uuid and collection_id = ?::uuid returning id`,
        params: [itemId, id],
      });
      if (removed.length === 0) throw notFound('Collection item');
      await preparedRows(em, bumpCollectionStatement(id, this.clock.now()));
    });
  }

  /** `GET /v1/collections`: the 25 most recently changed the caller belongs to. */
  async list(actor: Principal): Promise<ListResult<CollectionRowJson>> {
    const rows = await preparedRows<Omit<CollectionRow, 'created_by' | 'created_at'>>(
      this.em,
      memberCollectionsStatement(actor.organizationId, actor.userId, COLLECTION_LIMITS.list + 1),
    );
    return cappedResult(
      rows.map((row) => ({
        id: row.id,
        name: row.name,
        homeCount: row.home_count,
        updatedAt: iso(row.updated_at),
      })),
      COLLECTION_LIMITS.list,
    );
  }

  /** `GET /v1/collections/{id}`: the newest 40 items, `truncated` when more. */
  async detail(actor: Principal, id: string): Promise<CollectionJson> {
    return this.render(actor.organizationId, await this.visible(this.em, actor, id));
  }

  private async render(organizationId: string, collection: CollectionRow): Promise<CollectionJson> {
    const id = collection.id;
    const [items, members] = await Promise.all([
      preparedRows<CollectionItemRow>(this.em, newestItemsStatement(id, COLLECTION_LIMITS.detailItems + 1)),
      preparedRows<{ user_id: string }>(this.em, memberIdsStatement(id)),
    ]);
    const page = items.slice(0, COLLECTION_LIMITS.detailItems);
    const current = await this.currentCopies(organizationId, page);
    return {
      id: collection.id,
      name: collection.name,
      homeCount: collection.home_count,
      updatedAt: iso(collection.updated_at),
      createdBy: collection.created_by,
      memberIds: members.map((row) => row.user_id),
      truncated: items.length > COLLECTION_LIMITS.detailItems,
      items: page.map((item) => itemJson(item, current.get(item.id) ?? null)),
    };
  }

  /**
   * Each item's copy as stored state has it now, null when unavailable: internal homes from their
   * card (absent, or off the market → unavailable), feed homes from the agency's live rows, portal
   * homes from the copy kept when added. One statement per source kind.
   */
  private async currentCopies(
    organizationId: string,
    items: CollectionItemRow[],
  ): Promise<Map<string, CollectionItemSnapshot | null>> {
    const internal = items.filter((item) => item.source === 'internal').map((item) => item.source_id);
    const feed = items
      .filter((item) => item.source !== 'internal' && item.country === null)
      .map((item) => item.source_id)
      .filter(isUuid);
    const [cards, feedRows] = await Promise.all([
      this.cards.readable(organizationId, internal),
      feed.length === 0
        ? Promise.resolve([])
        : preparedRows<{ id: string; status: string }>(this.em, liveFeedRowsStatement(organizationId, feed)),
    ]);
    const liveFeed = new Map(feedRows.map((row) => [row.id, row]));
    const copies = new Map<string, CollectionItemSnapshot | null>();
    for (const item of items) {
      const stored = (item.snapshot as CollectionItemSnapshot | null) ?? null;
      if (item.source === 'internal') {
        const card = cards.get(item.source_id);
        copies.set(
          item.id,
          card && !OFF_MARKET_STATUSES.includes(card.status)
            ? {
                title: card.title,
                price: card.price,
                currency: card.currency,
                city: card.city,
                mainImageUrl: card.mainImageUrl,
              }
            : null,
        );
      } else if (item.country === null) {
        const row = liveFeed.get(item.source_id);
        copies.set(item.id, row && !OFF_MARKET_STATUSES.includes(row.status) ? stored : null);
      } else {
        copies.set(item.id, stored);
      }
    }
    return copies;
  }

  private async visible(em: EntityManager, actor: Principal, id: string): Promise<CollectionRow> {
    const [row] = await preparedRows<CollectionRow>(
      em,
      visibleCollectionStatement(actor.organizationId, actor.userId, id),
    );
    if (!row) throw notFound('Collection');
    return row;
  }

  /** The collection locked for the caller's transaction (writes to one run one at a time). */
  private async locked(em: EntityManager, actor: Principal, id: string): Promise<CollectionRow> {
    const [row] = await preparedRows<CollectionRow>(
      em,
      visibleCollectionStatement(actor.organizationId, actor.userId, id, true),
    );
    if (!row) throw notFound('Collection');
    return row;
  }
}

function itemJson(item: CollectionItemRow, copy: CollectionItemSnapshot | null): CollectionItemJson {
  const ref = { source: item.source, id: item.source_id, ...(item.country ? { country: item.country } : {}) };
  return {
    itemId: item.id,
    id: item.source_id,
    source: item.source,
    ref,
    title: copy?.title ?? null,
    price: copy?.price ?? null,
    currency: copy?.currency ?? null,
    city: copy?.city ?? null,
    mainImageUrl: copy?.mainImageUrl ?? null,
    unavailable: copy === null,
    addedAt: iso(item.created_at),
  };
}
