import { Migration } from '@mikro-orm/migrations';

/**
 * Offers (issue 13 item 8): what a queue's offer rule proposes for a lead when a trigger fires
 * (`call_ended`, `task_completed`, `time_passed`). At most one open offer per lead, queue and rule
 * (rule ids are per queue). Accepting keeps `previous` (the lead's status, tags and owners before),
 * the lead's `changed_at` after the change (`lead_changed_at`, to the microsecond: any later write
 * of the lead row refuses the undo) and the follow-up task it made. A queue or lead that goes takes its offers.
 */
export class Migration20261124110000_offers extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table offers (
        id uuid primary key,
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        lead_id bigint not null references leads (id) on delete cascade deferrable initially deferred,
        queue_id uuid not null references queues (id) on delete cascade deferrable initially deferred,
        rule_id text not null,
        "when" text not null check ("when" in ('call_ended', 'task_completed', 'time_passed')),
        offer jsonb not null,
        status text not null default 'open' check (status in ('open', 'accepted', 'dismissed')),
        sentence text not null,
        created_at timestamptz not null,
        decided_at timestamptz null,
        decided_by uuid null,
        previous jsonb null,
        lead_changed_at timestamptz null,
        follow_up_task_id uuid null
      );
      create unique index offers_one_open_per_rule on offers (lead_id, queue_id, rule_id) where status = 'open';
      create index offers_org_lead_created_idx on offers (organization_id, lead_id, created_at desc);
      create index offers_queue_idx on offers (queue_id);
    `);
  }
}
