import { Migration } from '@mikro-orm/migrations';

/**
 * Search retrieval plans and the typo vocabulary (README "Search"; issue 18 benchmark).
 *
 * - `search_estimate(org, tsquery text)`: the planner's row estimate for the organization's chunks
 *   matching a tsquery (null: all its chunks), read from `EXPLAIN` (no data is read). Retrieval
 *   sizes each concept's date window from it, so a common word reads its newest matches only.
 *   Volatile because `EXPLAIN` may not run in a stable function.
 * - `search_recent_floor(org, n)`: the `occurred_at` of the organization's n-th newest chunk (an
 *   index-only walk of `search_chunk_recent_idx`): a window's lower bound. It sets
 *   `enable_indexscan` back on for itself: retrieval's transaction turns plain index scans off.
 * - `search_chunk.tsv` statistics target 1,000: `most_common_elems` then holds about 1,700
 *   lexemes, so a word outside them is estimated at 146 passages of 1,000,000 instead of 3,383.
 * - `search_word`: each organization's distinct `app_simple` words (3-40 characters, starting with
 *   a letter), written with the chunks; a trigram index on it finds the words a misspelt query
 *   word is like (the trigram pass), which full text then searches. Words are not removed when
 *   their passages go (a word no passage holds any more finds nothing). `fuzzystrmatch`: the
 *   edit distance of a typo (`levenshtein`).
 */
export class Migration20261124175000_search_plans extends Migration {
  override async up(): Promise<void> {
    this.addSql('create extension if not exists fuzzystrmatch');
    this.addSql(`create function search_estimate(org uuid, q text) returns bigint
      language plpgsql volatile as $$
      declare
        plan json;
      begin
        if q is null then
          execute format('explain (format json) select 1 from search_chunk c where c.organization_id = %L', org)
            into plan;
        else
          execute format(
            'explain (format json) select 1 from search_chunk c where c.organization_id = %L and c.tsv @@ %L::tsquery',
            org, q) into plan;
        end if;
        return (plan->0->'Plan'->>'Plan Rows')::bigint;
      end $$`);
    this.addSql(`create function search_recent_floor(org uuid, n bigint) returns timestamptz
      language sql stable set enable_indexscan = on as $$
        select occurred_at from search_chunk where organization_id = org
         order by occurred_at desc offset n limit 1
      $$`);
    this.addSql('alter table search_chunk alter column tsv set statistics 1000');
    this.addSql(`create table search_word (
      organization_id uuid not null references organizations(id) on delete cascade,
      word text not null,
      primary key (organization_id, word)
    )`);
    this.addSql('create index search_word_trgm_idx on search_word using gin (word gin_trgm_ops)');
    this.addSql(`insert into search_word (organization_id, word)
      select distinct c.organization_id, w
        from search_chunk c cross join unnest(tsvector_to_array(ts_filter(c.tsv, '{b}'))) w
       where length(w) between 3 and 40 and w ~ '^[[:alpha:]]'
      on conflict do nothing`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table search_word');
    this.addSql('alter table search_chunk alter column tsv set statistics -1');
    this.addSql('drop function search_recent_floor(uuid, bigint)');
    this.addSql('drop function search_estimate(uuid, text)');
  }
}
