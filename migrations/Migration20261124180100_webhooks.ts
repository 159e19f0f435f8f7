import { Migration } from '@mikro-orm/migrations';

/**
 * Webhook endpoints and their deliveries (INTERFACES.md "Webhooks and MCP"; issue 19 items 3-5).
 *
 * - `webhook_endpoint`: an agency's receiver (10 at most). `secret` signs (Standard Webhooks; kept
 *   as it is: signing needs it), `previous_secret` too until `previous_secret_valid_until` (a
 *   rotation). `relay_from_sequence`: the organization's last event sequence when the endpoint was
 *   made; only later events reach it. `failing_since`: the first failed attempt since the last
 *   success (3 days of that disables the endpoint, `disabled_reason` `failing`).
 * - `webhook_delivery`: one event for one endpoint (unique: relaying twice sends once), the truth
 *   in both job modes. `payload` is the exact body sent on every attempt; `next_attempt_at` is
 *   when a pending delivery is due (a claimed attempt pushes it out by the lease, so a process
 *   that dies mid-delivery leaves it due again). Kept 30 days.
 * - `webhook_relay_cursor`: per organization, the last event sequence turned into deliveries.
 */
export class Migration20261124180100_webhooks extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table webhook_endpoint (
      id uuid primary key,
      organization_id uuid not null references organizations(id) on delete cascade,
      url text not null,
      description text,
      events text[] not null,
      status text not null default 'enabled' check (status in ('enabled', 'disabled')),
      disabled_reason text,
      secret text not null,
      previous_secret text,
      previous_secret_valid_until timestamptz,
      failing_since timestamptz,
      relay_from_sequence bigint not null default 0,
      version integer not null default 1,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create index webhook_endpoint_org_idx on webhook_endpoint (organization_id, created_at)');
    this.addSql(`create table webhook_delivery (
      id uuid primary key,
      organization_id uuid not null references organizations(id) on delete cascade,
      endpoint_id uuid not null references webhook_endpoint(id) on delete cascade,
      event_id text not null,
      event_type text not null,
      payload text not null,
      attempt integer not null default 0,
      status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
      response_status integer,
      duration_ms integer,
      error text,
      created_at timestamptz not null,
      next_attempt_at timestamptz,
      constraint webhook_delivery_event_key unique (endpoint_id, event_id)
    )`);
    this.addSql(
      "create index webhook_delivery_due_idx on webhook_delivery (next_attempt_at) where status = 'pending'",
    );
    this.addSql(
      'create index webhook_delivery_endpoint_idx on webhook_delivery (endpoint_id, created_at desc, id desc)',
    );
    this.addSql('create index webhook_delivery_created_idx on webhook_delivery (created_at)');
    this.addSql(`create table webhook_relay_cursor (
      organization_id uuid primary key references organizations(id) on delete cascade,
      last_sequence bigint not null
    )`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table webhook_relay_cursor');
    this.addSql('drop table webhook_delivery');
    this.addSql('drop table webhook_endpoint');
  }
}
