import { Migration } from '@mikro-orm/migrations';

/**
 * Lead facts of the lead's work (issue 13 items 3 and 9): what the queue filters read of tasks and
 * deals now lives on `lead_facts`, kept by the CRM services in the transaction of every task and
 * deal write and by `facts:rebuild` (libs/crm `leadWorkFactsStatement`, the same text as below).
 *
 * - `pending_tasks`: pending tasks of the lead; `next_task_due_at`: the earliest due pending task.
 * - `overdue_from`: the first instant at which the lead has an overdue pending task. A date-only
 *   task (stored at 00:00 UTC of its date) is overdue from the next day's 00:00; a timed task once
 *   its due moment has passed, i.e. from one microsecond (timestamptz's grain) after it. So
 *   `taskOverdue` is `overdue_from <= now`.
 * - `open_deal_stages`: the distinct stages of the lead's open deals, sorted.
 *
 * Backfilled for every lead that has a task or a deal (the others keep no row or the defaults,
 * which are their true values). Indexes: one per organization and column for the filters and
 * sort keys, GIN on the stages. The call signals (GIN) and notes' text (trigram GIN) are indexed
 * by the queues migration already.
 */
export class Migration20261124100000_lead_work_facts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table lead_facts
        add column pending_tasks integer not null default 0,
        add column next_task_due_at timestamptz null,
        add column overdue_from timestamptz null,
        add column open_deal_stages text[] not null default '{}';

      insert into lead_facts as f (lead_id, organization_id, pending_tasks, next_task_due_at, overdue_from,
                                   open_deal_stages, updated_at)
      select l.id, l.organization_id, coalesce(t.pending, 0), t.next_due, t.overdue_from, coalesce(d.stages, '{}'), now()
        from leads l
        left join lateral (
          select count(*) as pending, min(due_date) as next_due,
                 min(case when mod(extract(epoch from due_date), 86400) = 0 then due_date + interval '1 day'
                          else due_date + interval '1 microsecond' end) as overdue_from
            from tasks where lead_id = l.id and status = 'pending') t on true
        left join lateral (
          select array_agg(distinct stage order by stage) as stages
            from deals where lead_id = l.id and status = 'open') d on true
       where exists (select 1 from tasks where lead_id = l.id) or exists (select 1 from deals where lead_id = l.id)
      on conflict (lead_id) do update
         set pending_tasks = excluded.pending_tasks, next_task_due_at = excluded.next_task_due_at,
             overdue_from = excluded.overdue_from, open_deal_stages = excluded.open_deal_stages;

      create index lead_facts_org_pending_tasks_idx on lead_facts (organization_id, pending_tasks);
      create index lead_facts_org_next_task_idx on lead_facts (organization_id, next_task_due_at);
      create index lead_facts_org_overdue_idx on lead_facts (organization_id, overdue_from);
      create index lead_facts_open_deal_stages_idx on lead_facts using gin (open_deal_stages);
    `);
  }
}
