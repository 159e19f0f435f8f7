import { Migration } from '@mikro-orm/migrations';

/**
 * Lead counters without a hot row (docs/reliability.md, "Counters without a hot row"): the
 * triggers append one row per statement and key instead of updating the agency's counter row,
 * which every create of an agency locked until its commit. Reads sum the rows; the
 * `crm.compact-lead-counters` job folds them back into one row per key every few seconds.
 */
export class Migration20261208010000_lead_counter_deltas extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table lead_status_counts drop constraint lead_status_counts_pkey;
      create index lead_status_counts_key_idx on lead_status_counts (organization_id, crm_status);
      alter table tag_lead_counts drop constraint tag_lead_counts_pkey;
      create index tag_lead_counts_key_idx on tag_lead_counts (organization_id, tag_id);

      create or replace function lead_counters_shift(added lead_counter_row[], removed lead_counter_row[]) returns void
      language sql as $$
        with delta as (
          select organization_id, crm_status, 1 as n, unassigned::int as u, tag_ids from unnest(added)
          union all
          select organization_id, crm_status, -1, -(unassigned::int), tag_ids from unnest(removed)
        ), by_status as (
          insert into lead_status_counts (organization_id, crm_status, n, unassigned)
          select organization_id, crm_status, sum(n), sum(u)
            from delta group by 1, 2 having sum(n) <> 0 or sum(u) <> 0
          returning 1
        )
        insert into tag_lead_counts (organization_id, tag_id, n)
        select organization_id, t.tag_id, sum(n)
          from delta, unnest(tag_ids) as t(tag_id) group by 1, 2 having sum(n) <> 0;
      $$;

      -- one row per key again: what the deletes saw, summed; rows appended meanwhile stay as they are
      create function lead_counters_compact() returns void language sql as $$
        with moved as (
          delete from lead_status_counts returning organization_id, crm_status, n, unassigned
        ), summed as (
          insert into lead_status_counts (organization_id, crm_status, n, unassigned)
          select organization_id, crm_status, sum(n), sum(unassigned)
            from moved group by 1, 2 having sum(n) <> 0 or sum(unassigned) <> 0
          returning 1
        ), moved_tags as (
          delete from tag_lead_counts returning organization_id, tag_id, n
        )
        insert into tag_lead_counts (organization_id, tag_id, n)
        select organization_id, tag_id, sum(n) from moved_tags group by 1, 2 having sum(n) <> 0;
      $$;
    `);
  }
}
