import { Migration } from '@mikro-orm/migrations';

/**
 * Sampled slice floors (README "Search", step 3; issue 18 benchmark).
 *
 * - `search_chunk_floor_sample_idx`: `(organization_id, occurred_at desc)` over one passage in 64
 *   (`id % 64 = 0`: ids follow the order passages are written in, so the sample spreads evenly).
 * - `search_sampled_floor(org, n)`: about the `occurred_at` of the organization's n-th newest
 *   passage, read as the (n / 64)-th newest of the sample: a walk of n / 64 index entries instead
 *   of n. A common word's first slice asked `search_recent_floor` for the 195,000th newest passage
 *   of a 1,000,000-passage agency, 15-27 ms a search; the sample answers in under a millisecond,
 *   within a few percent of the same date. Retrieval uses it from `SAMPLED_FLOOR_FROM` passages on
 *   (below, the exact walk is cheap). It sets `enable_indexscan` back on for itself, as
 *   `search_recent_floor` does.
 */
export class Migration20261125100000_search_floor_sample extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create index search_chunk_floor_sample_idx on search_chunk (organization_id, occurred_at desc) where id % 64 = 0',
    );
    this.addSql(`create function search_sampled_floor(org uuid, n bigint) returns timestamptz
      language sql stable set enable_indexscan = on as $$
        select occurred_at from search_chunk where organization_id = org and id % 64 = 0
         order by occurred_at desc offset n / 64 limit 1
      $$`);
  }

  override async down(): Promise<void> {
    this.addSql('drop function search_sampled_floor(uuid, bigint)');
    this.addSql('drop index search_chunk_floor_sample_idx');
  }
}
