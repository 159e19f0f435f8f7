/**
 * The SQL of collections, as pure functions. A collection is seen only by its members (the creator
 * is always one: a `collection_members` row written with the collection). Lists pick the page's
 * ids first (index `collections_org_idx`, `collection_items_newest_idx`).
 */

import type { Statement } from '@app/platform';

export interface CollectionRow {
  id: string;
  name: string;
  created_by: string;
  created_at: Date;
  updated_at: Date;
  home_count: number;
}

export interface CollectionItemRow {
  id: string;
  source: string;
  source_id: string;
  country: string | null;
  snapshot: Record<string, unknown> | null;
  created_at: Date;
}

const MEMBER = `exists (select 1 from collection_members m where m.collection_id = c.id and m.user_id = ?::uuid)`;

/** The collection when `userId` of `organizationId` is one of its members (`for update` when locking). */
export const visibleCollectionStatement = (
  organizationId: string,
  userId: string,
  id: string,
  lock = false,
): Statement => ({
  sql: `select c.id, c.name, c.created_by, c.created_at, c.updated_at,
               (select count(*)::int from collection_items i where i.collection_id = c.id) as home_count
          from collections c
         where c.id = ?::uuid and c.organization_id = ?::uuid and (c.created_by = ?::uuid or ${MEMBER})
         ${lock ? 'for update of c' : ''}`,
  params: [id, organizationId, userId, userId],
});

/** The `limit` most recently changed collections `userId` belongs to. */
export const memberCollectionsStatement = (
  organizationId: string,
  userId: string,
  limit: number,
): Statement => ({
  sql: `with page as (
          select c.id, c.name, c.updated_at
            from collections c
           where c.organization_id = ?::uuid and (c.created_by = ?::uuid or ${MEMBER})
           order by c.updated_at desc, c.id desc
           limit ?)
        select p.id, p.name, p.updated_at,
               (select count(*)::int from collection_items i where i.collection_id = p.id) as home_count
          from page p
         order by p.updated_at desc, p.id desc`,
  params: [organizationId, userId, userId, limit],
});

/** The newest `limit` items of a collection. */
export const newestItemsStatement = (collectionId: string, limit: number): Statement => ({
  sql: `select id, source, source_id, country, snapshot, created_at
          from collection_items
         where collection_id = ?::uuid
         order by created_at desc, id desc
         limit ?`,
  params: [collectionId, limit],
});

export const memberIdsStatement = (collectionId: string): Statement => ({
  sql: `select user_id from collection_members where collection_id = ?::uuid order by user_id`,
  params: [collectionId],
});

/** Whether the collection already holds that home. */
export const sameItemStatement = (
  collectionId: string,
  source: string,
  sourceId: string,
  country: string | null,
): Statement => ({
  sql: `select id from collection_items
         where collection_id = ?::uuid and source = ? and source_id = ? and coalesce(country, '') = coalesce(?::text, '')`,
  params: [collectionId, source, sourceId, country],
});

/**
 * The agency's live non-internal (feed) rows among `ids` with their status: absent means the row
 * is gone (deleted by the feed or by hand).
 */
export const liveFeedRowsStatement = (organizationId: string, ids: string[]): Statement => ({
  sql: `select id, status, title, price::text as price, currency, city
          from listings
         where organization_id = ?::uuid and id = any(?::uuid[]) and source <> 'internal' and deleted_at is null`,
  params: [organizationId, `{${ids.join(',')}}`],
});

export const bumpCollectionStatement = (collectionId: string, now: Date): Statement => ({
  sql: `update collections set updated_at = greatest(updated_at + interval '1 millisecond', ?::timestamptz)
         where id = ?::uuid`,
  params: [now, collectionId],
});
