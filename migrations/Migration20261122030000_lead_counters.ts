import { Migration } from '@mikro-orm/migrations';

/**
 * Exact lead totals without counting 100,000 rows per request: per-agency counters by status
 * (with how many are unassigned) and per tag, kept by statement-level triggers in the same
 * transaction as every insert, update and delete of leads.
 */
export class Migration20261122030000_lead_counters extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table lead_status_counts (
        organization_id uuid not null,
        crm_status text not null,
        n bigint not null default 0,
        unassigned bigint not null default 0,
        primary key (organization_id, crm_status)
      );

      create table tag_lead_counts (
        organization_id uuid not null,
        tag_id uuid not null,
        n bigint not null default 0,
        primary key (organization_id, tag_id)
      );

      create type lead_counter_row as (organization_id uuid, crm_status text, unassigned boolean, tag_ids uuid[]);

      -- nets the rows a statement removed against those it added; writes only counters that moved,
      -- in key order so concurrent statements lock them in the same order
      create function lead_counters_shift(added lead_counter_row[], removed lead_counter_row[]) returns void
      language sql as $$
        with delta as (
          select organization_id, crm_status, 1 as n, unassigned::int as u, tag_ids from unnest(added)
          union all
          select organization_id, crm_status, -1, -(unassigned::int), tag_ids from unnest(removed)
        ), by_status as (
          select organization_id, crm_status, sum(n) as n, sum(u) as u
            from delta group by 1, 2 having sum(n) <> 0 or sum(u) <> 0
        ), status_upsert as (
          insert into lead_status_counts as c (organization_id, crm_status, n, unassigned)
          select organization_id, crm_status, n, u from by_status order by 1, 2
          on conflict (organization_id, crm_status)
          do update set n = c.n + excluded.n, unassigned = c.unassigned + excluded.unassigned
          returning 1
        ), by_tag as (
          select organization_id, t.tag_id, sum(n) as n
            from delta, unnest(tag_ids) as t(tag_id) group by 1, 2 having sum(n) <> 0
        )
        insert into tag_lead_counts as c (organization_id, tag_id, n)
        select organization_id, tag_id, n from by_tag order by 1, 2
        on conflict (organization_id, tag_id) do update set n = c.n + excluded.n;
      $$;

      create function leads_counted_after_insert() returns trigger language plpgsql as $$
      begin
        perform lead_counters_shift(
          array(select row(organization_id, crm_status, cardinality(assignee_ids) = 0, tag_ids)::lead_counter_row from new_rows),
          '{}');
        return null;
      end $$;

      create function leads_counted_after_update() returns trigger language plpgsql as $$
      begin
        perform lead_counters_shift(
          array(select row(organization_id, crm_status, cardinality(assignee_ids) = 0, tag_ids)::lead_counter_row from new_rows),
          array(select row(organization_id, crm_status, cardinality(assignee_ids) = 0, tag_ids)::lead_counter_row from old_rows));
        return null;
      end $$;

      create function leads_counted_after_delete() returns trigger language plpgsql as $$
      begin
        perform lead_counters_shift(
          '{}',
          array(select row(organization_id, crm_status, cardinality(assignee_ids) = 0, tag_ids)::lead_counter_row from old_rows));
        return null;
      end $$;

      create trigger leads_counted_insert after insert on leads
        referencing new table as new_rows for each statement execute function leads_counted_after_insert();
      create trigger leads_counted_update after update on leads
        referencing old table as old_rows new table as new_rows for each statement execute function leads_counted_after_update();
      create trigger leads_counted_delete after delete on leads
        referencing old table as old_rows for each statement execute function leads_counted_after_delete();

      insert into lead_status_counts (organization_id, crm_status, n, unassigned)
      select organization_id, crm_status, count(*), count(*) filter (where cardinality(assignee_ids) = 0)
        from leads group by 1, 2;
      insert into tag_lead_counts (organization_id, tag_id, n)
      select organization_id, t.tag_id, count(*) from leads, unnest(tag_ids) as t(tag_id) group by 1, 2;
    `);
  }
}
