import { Migration } from '@mikro-orm/migrations';

/** The records whose changes are events (issue 19 item 1): each carries its own `version`. */
const VERSIONED = [
  'leads',
  'notes',
  'tasks',
  'deals',
  'calls',
  'chat_messages',
  'emails',
  'viewings',
  'documents',
  'brochures',
  'offers',
];

/**
 * The event outbox (INTERFACES.md "Webhooks and MCP"; issue 19 item 1).
 *
 * - `event`: one row per catalogued change, written in the change's own transaction (the
 *   platform's `Outbox`). `sequence` is per organization, gap-free and in commit order: it comes
 *   from `org_event_counter`, whose row lock serialises one organization's event-producing commits
 *   (taken as the last statement before the commit). Kept 30 days (`occurred_at` index).
 * - `org_event_counter.purged_through`: the highest sequence the retention job deleted (it deletes
 *   whole sequence prefixes); `GET /v1/events` with an `after` below it is EVENT_CURSOR_EXPIRED.
 * - `<record>.version`: 1 on create, +1 per change; an event's `recordVersion`.
 */
export class Migration20261124180000_events extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table org_event_counter (
      organization_id uuid primary key references organizations(id) on delete cascade,
      last bigint not null default 0,
      purged_through bigint not null default 0
    )`);
    this.addSql(`create table event (
      id text primary key,
      organization_id uuid not null references organizations(id) on delete cascade,
      sequence bigint not null,
      type text not null,
      occurred_at timestamptz not null,
      subject_type text not null,
      subject_id text not null,
      lead_id bigint,
      record_version integer not null,
      actor jsonb not null,
      data jsonb not null,
      changed_fields text[],
      constraint event_sequence_key unique (organization_id, sequence)
    )`);
    this.addSql('create index event_occurred_at_idx on event (occurred_at)');
    this.addSql(
      'create index event_org_lead_idx on event (organization_id, lead_id, sequence) where lead_id is not null',
    );
    for (const table of VERSIONED)
      this.addSql(`alter table ${table} add column version integer not null default 1`);
  }

  override async down(): Promise<void> {
    for (const table of VERSIONED) this.addSql(`alter table ${table} drop column version`);
    this.addSql('drop table event');
    this.addSql('drop table org_event_counter');
  }
}
