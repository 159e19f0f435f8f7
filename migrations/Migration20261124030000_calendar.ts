import { Migration } from '@mikro-orm/migrations';

/**
 * Calendar (issue 11): meetings and each person's working hours.
 *
 * - `meetings`: on the calendar of `created_by` and of everyone in `attendee_user_ids`; `lead_id`
 *   optional (cleared when the lead goes). A meeting lasts at most 24 h, so overlap lookups bound
 *   `starts_at` on both sides and stay on the `starts_at` indexes.
 * - `working_hours`: one row per person who set their own (none = the default).
 */
export class Migration20261124030000_calendar extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table meetings (
        id uuid primary key,
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        created_by uuid not null,
        title text not null check (char_length(title) between 1 and 200),
        starts_at timestamptz not null,
        ends_at timestamptz not null,
        lead_id bigint null references leads (id) on delete set null deferrable initially deferred,
        attendee_user_ids uuid[] not null default '{}',
        status text not null default 'scheduled' check (status in ('scheduled', 'cancelled')),
        created_at timestamptz not null,
        updated_at timestamptz not null,
        check (ends_at > starts_at and ends_at <= starts_at + interval '24 hours')
      );
      -- a person's calendar and busy times: meetings they created, meetings they attend
      create index meetings_creator_starts_idx on meetings (organization_id, created_by, starts_at);
      create index meetings_attendees_idx on meetings using gin (attendee_user_ids);
      -- free-times with leadId: the lead's scheduled meetings
      create index meetings_lead_starts_idx on meetings (lead_id, starts_at)
        where lead_id is not null and status = 'scheduled';

      create table working_hours (
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        user_id uuid not null,
        zone text not null,
        days jsonb not null,
        updated_at timestamptz not null,
        primary key (organization_id, user_id)
      );
    `);
  }
}
