import { Migration } from '@mikro-orm/migrations';

/**
 * The search index's recent indexes (README "Search", "Index";
 * `libs/search/src/domain/recent-indexes.ts`): a GIN index on `tsv` and an (organization,
 * occurred_at) index, both over the passages from the first day of the month two months before
 * this one (UTC). The job `search.recent-indexes` moves them each month (built concurrently, the
 * old ones then dropped); here they are built in the migration's transaction, as the others were,
 * which holds writes to `search_chunk` for the build: on a large table, build them first with the
 * job's `create index concurrently` statements (`recentIndexDefinitions`), and this skips them.
 * The names carry the bound: `search_chunk_tsv_since_YYYYMMDD`, `search_chunk_recent_since_YYYYMMDD`.
 */
export class Migration20261125080000_search_recent_indexes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      do $$
      declare
        bound timestamp := date_trunc('month', now() at time zone 'UTC') - interval '2 months';
        suffix text := to_char(bound, 'YYYYMMDD');
        predicate text := format('where occurred_at >= %L', to_char(bound, 'YYYY-MM-DD') || ' 00:00:00+00');
      begin
        execute format('create index if not exists search_chunk_tsv_since_%s on search_chunk using gin (tsv) %s', suffix, predicate);
        execute format('create index if not exists search_chunk_recent_since_%s on search_chunk (organization_id, occurred_at desc) %s',
                       suffix, predicate);
      end $$;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      do $$
      declare
        idx text;
      begin
        for idx in
          select c.relname from pg_index i join pg_class c on c.oid = i.indexrelid
           where i.indrelid = 'search_chunk'::regclass and c.relname ~ '^search_chunk_(tsv|recent)_since_[0-9]{8}$'
        loop
          execute format('drop index %I', idx);
        end loop;
      end $$;
    `);
  }
}
