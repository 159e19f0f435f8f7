import { Migration } from '@mikro-orm/migrations';

/**
 * Records connectors push (INTERFACES.md "Ingestion"): calls (with their transcript and analysis),
 * chat messages and emails, each upserted by the connector's id, and the lead facts.
 *
 * - Each record table holds its connector's id: unique per organization, connector and (by the
 *   table) kind, the key of `INSERT … ON CONFLICT`.
 * - Reads go by lead, newest first: one index per table on (lead_id, <time> desc) serves the
 *   lists, the timeline entries and the facts.
 * - `lead_facts`: one row per lead, recomputed from the stored rows of that lead in the same
 *   transaction as every write (independent of arrival order). `totalCalls` and `lastCallAt` of
 *   the lead list live here now: the two columns the calls context was to keep on `leads` go
 *   (nothing wrote them yet; their values move over).
 */
export class Migration20261124070000_ingest_records extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table calls (
        id uuid primary key,
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        lead_id bigint not null references leads (id) on delete cascade deferrable initially deferred,
        connector text not null,
        external_id text not null,
        owner_id uuid null,
        direction text not null check (direction in ('inbound', 'outbound')),
        status text not null check (status in ('completed', 'no-answer', 'busy', 'failed', 'canceled')),
        outcome text null,
        ended_reason text null,
        duration_seconds integer not null check (duration_seconds >= 0),
        has_recording boolean not null,
        started_at timestamptz not null,
        ended_at timestamptz null,
        transcript text null,
        detected_language text null,
        transcript_at timestamptz null,
        analysis jsonb null,
        analysis_at timestamptz null,
        actor text not null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create unique index calls_external_unique on calls (organization_id, connector, external_id);
      create index calls_lead_started_idx on calls (lead_id, started_at desc, id desc);

      create table chat_messages (
        id uuid primary key,
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        lead_id bigint not null references leads (id) on delete cascade deferrable initially deferred,
        connector text not null,
        external_id text not null,
        channel text not null check (channel in ('whatsapp', 'linkedin', 'instagram', 'telegram')),
        kind text not null,
        direction text not null check (direction in ('inbound', 'outbound')),
        status text not null,
        at timestamptz not null,
        body text not null,
        files jsonb not null default '[]',
        sent_by uuid null,
        actor text not null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create unique index chat_messages_external_unique on chat_messages (organization_id, connector, external_id);
      create index chat_messages_lead_at_idx on chat_messages (lead_id, at desc, id desc);
      create index chat_messages_lead_channel_at_idx on chat_messages (lead_id, channel, at desc, id desc);

      create table emails (
        id uuid primary key,
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        lead_id bigint not null references leads (id) on delete cascade deferrable initially deferred,
        connector text not null,
        external_id text not null,
        source text not null check (source in ('captured', 'automated', 'manual')),
        capture_direction text null check (capture_direction in ('inbound', 'outbound')),
        subject text not null,
        status text not null,
        from_address text not null,
        recipient_email text not null,
        body_text text not null,
        sent_at timestamptz null,
        message_at timestamptz not null,
        captured_at timestamptz null,
        actor text not null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create unique index emails_external_unique on emails (organization_id, connector, external_id);
      create index emails_lead_message_at_idx on emails (lead_id, message_at desc, id desc);

      create table lead_facts (
        lead_id bigint primary key references leads (id) on delete cascade deferrable initially deferred,
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        last_call_at timestamptz null,
        total_calls integer not null default 0,
        last_call_status text null,
        last_call_direction text null,
        unanswered_streak integer not null default 0,
        call_signal text[] not null default '{}',
        last_inbound_at timestamptz null,
        last_email_at timestamptz null,
        last_touch_at timestamptz null,
        updated_at timestamptz not null
      );
      create index lead_facts_org_idx on lead_facts (organization_id);

      insert into lead_facts (lead_id, organization_id, last_call_at, total_calls, last_touch_at, updated_at)
      select id, organization_id, last_call_at, total_calls, last_call_at, now()
        from leads where total_calls > 0 or last_call_at is not null;
      alter table leads drop column total_calls, drop column last_call_at;
    `);
  }
}
