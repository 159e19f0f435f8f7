import { Migration } from '@mikro-orm/migrations';

/**
 * Queues (issue 13): saved call views. `definition` holds the normalized root, lanes, rest, sort,
 * calling and rules (libs/queues `QueueDefinition`); name, icon and scope are columns. One system
 * queue per organization ("My calls", `created_by` null), backfilled here for the organizations
 * that exist and made for later ones on their first `GET /v1/queues` (`insert … on conflict do
 * nothing`, QueuesRepository.ensureSystemQueue). The queue filters' indexes (issue 13 item 9):
 * every lead fact a condition or a sort reads, per organization; the call signals (GIN); notes'
 * text for `notesContain` (trigram GIN); open deals by stage; the lead columns filtered or sorted
 * that had no index. Tags and assignees are arrays on `leads` with GIN indexes already
 * (leads_tags_idx, leads_assignees_idx): there are no lead_tag / lead_assignee tables to index.
 */
export class Migration20261124090000_queues extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table queues (
        id uuid primary key,
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        created_by uuid null,
        name text not null,
        icon text not null,
        scope text not null check (scope in ('private', 'shared')),
        system boolean not null default false,
        definition jsonb not null,
        audience_user_ids uuid[] not null default '{}',
        audience_team_ids uuid[] not null default '{}',
        created_at timestamptz not null,
        updated_at timestamptz not null,
        check (system = (created_by is null))
      );
      create unique index queues_one_system_per_org on queues (organization_id) where system;
      create index queues_org_creator_idx on queues (organization_id, created_by);
      create index queues_org_shared_idx on queues (organization_id, name) where scope = 'shared';

      ${BACKFILL_SYSTEM_QUEUES};

      create index lead_facts_org_last_call_idx on lead_facts (organization_id, last_call_at);
      create index lead_facts_org_last_email_idx on lead_facts (organization_id, last_email_at);
      create index lead_facts_org_last_touch_idx on lead_facts (organization_id, last_touch_at);
      create index lead_facts_org_last_inbound_idx on lead_facts (organization_id, last_inbound_at);
      create index lead_facts_org_call_status_idx on lead_facts (organization_id, last_call_status);
      create index lead_facts_org_call_direction_idx on lead_facts (organization_id, last_call_direction);
      create index lead_facts_org_streak_idx on lead_facts (organization_id, unanswered_streak);
      create index lead_facts_org_total_calls_idx on lead_facts (organization_id, total_calls);
      create index lead_facts_call_signal_idx on lead_facts using gin (call_signal);

      create index leads_org_source_idx on leads (organization_id, source);
      create index leads_org_lead_type_idx on leads (organization_id, lead_type);
      create index leads_org_language_idx on leads (organization_id, lower(language));
      create index leads_org_first_name_idx on leads (organization_id, lower(first_name), id);
      create index leads_org_purchased_idx on leads (organization_id, purchased_at, id);

      create index notes_content_trgm_idx on notes using gin (content gin_trgm_ops);
      create index deals_lead_open_stage_idx on deals (lead_id, stage) where status = 'open';
    `);
  }
}

/** The system queue's definition as libs/queues normalizes it (SYSTEM_QUEUE_DEFINITION), frozen here. */
const condition = (field: string, operator: string, value: unknown) => ({
  type: 'condition',
  field,
  operator,
  value,
});
const group = (...children: unknown[]) => ({ type: 'group', combinator: 'and', children });
const SYSTEM_DEFINITION = JSON.stringify({
  root: group(condition('assignee', 'has_any_of', { kind: 'strings', values: ['$me'] })),
  lanes: [
    {
      id: 'overdue',
      name: 'Overdue',
      when: group(condition('taskOverdue', 'is_true', { kind: 'boolean', value: true })),
      sort: null,
    },
    {
      id: 'due-today',
      name: 'Due today',
      when: group(condition('nextTaskDueAt', 'in_next_n_days', { kind: 'integer', value: 0 })),
      sort: null,
    },
    {
      id: 'new',
      name: 'New',
      when: group(
        condition('crmStatus', 'has_any_of', { kind: 'strings', values: ['lead'] }),
        condition('callCount', 'eq', { kind: 'integer', value: 0 }),
      ),
      sort: null,
    },
    {
      id: 'not-reached',
      name: 'Not reached',
      when: group(condition('unansweredStreak', 'gt', { kind: 'integer', value: 0 })),
      sort: null,
    },
  ],
  rest: 'last',
  sort: null,
  calling: { pool: 'owners', coolDownMinutes: 120, people: null },
  rules: [],
});

/** Every organization without a system queue gets one (run by `up`; exported for its test). */
export const BACKFILL_SYSTEM_QUEUES = `
      insert into queues (id, organization_id, created_by, name, icon, scope, system, definition, created_at, updated_at)
      select gen_random_uuid(), o.id, null, 'My calls', 'phone', 'shared', true, '${SYSTEM_DEFINITION}'::jsonb, now(), now()
        from organizations o
       where not exists (select 1 from queues q where q.organization_id = o.id and q.system)
      on conflict do nothing`;
