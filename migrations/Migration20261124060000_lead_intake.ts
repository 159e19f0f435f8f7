import { Migration } from '@mikro-orm/migrations';

/**
 * Lead intake and the lead link (INTERFACES.md "Ingestion").
 *
 * - `leads.phone_key`: the phone's match key, E.164 (libphonenumber-js, default region ES) or the
 *   bare digits of a number that does not parse; written by the application with every phone. Rows
 *   written by SQL alone (this backfill, set-based seeders) get `phone_key_guess`, a best effort of
 *   the same rule: `+` and `00` prefixes, Spanish 9-digit numbers, else the digits.
 * - Matching is one indexed lookup each: lower(email) and phone_key per organization, most
 *   recently updated first.
 * - `leads.origin`, `consent`, `country`, `growth_area_id`: what an intake tells of the lead.
 * - `integration_external_ids`: a connector's id of a record, unique per organization, connector
 *   and kind (`lead` here; calls, messages, emails and viewings later).
 * - `lead_inquiries`: one row per intake, the timeline's `inquiry` entries.
 */
export class Migration20261124060000_lead_intake extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create function phone_key_guess(phone text) returns text language sql immutable as $$
        select case
                 when d = '' then null
                 when btrim(phone) like '+%' then '+' || d
                 when d like '00%' and length(d) > 6 then '+' || substr(d, 3)
                 when d ~ '^[6789][0-9]{8}$' then '+34' || d
                 else d
               end
          from (select regexp_replace(coalesce(phone, ''), '[^0-9]', '', 'g') as d) x
      $$;

      alter table leads
        add column phone_key text null,
        add column origin text null,
        add column consent jsonb null,
        add column country text null,
        add column growth_area_id uuid null;
      update leads set phone_key = phone_key_guess(phone_number) where phone_number <> '';

      create function leads_guess_phone_key() returns trigger language plpgsql as $$
      begin
        new.phone_key := phone_key_guess(new.phone_number);
        return new;
      end $$;
      create trigger leads_guess_phone_key before insert on leads
        for each row when (new.phone_key is null and new.phone_number <> '')
        execute function leads_guess_phone_key();

      create index leads_org_email_match_idx on leads (organization_id, lower(email), updated_at desc)
        where email <> '';
      create index leads_org_phone_match_idx on leads (organization_id, phone_key, updated_at desc)
        where phone_key is not null;

      create table integration_external_ids (
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        connector text not null,
        kind text not null,
        external_id text not null,
        record_id text not null,
        lead_id bigint null,
        created_at timestamptz not null,
        primary key (organization_id, connector, kind, external_id)
      );

      create table lead_inquiries (
        id uuid primary key,
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        lead_id bigint not null references leads (id) on delete cascade deferrable initially deferred,
        origin text not null,
        message text null,
        listing jsonb null,
        actor text not null,
        occurred_at timestamptz not null
      );
      create index lead_inquiries_lead_idx on lead_inquiries (lead_id, occurred_at desc);
    `);
  }
}
