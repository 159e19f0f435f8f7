import { Migration } from '@mikro-orm/migrations';

/**
 * Deals (issue 11): the pipeline, its commission participants, an index for every list filter
 * and the list's order.
 *
 * - `assignee_ids uuid[]` as on leads and tasks (GIN).
 * - `closed_at`: `won_at` of a won deal, `lost_at` of a lost one, null while open; what the
 *   `closedFrom`/`closedTo` filters compare (reopening clears both dates, so it is null again).
 * - `deal_participants`: `(deal_id, user_id, role)` unique, checked at commit, so a PATCH that
 *   replaces the whole list may insert the new rows before the old ones go.
 */
export class Migration20261124040000_deals extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create extension if not exists pg_trgm;

      create table deals (
        id uuid primary key,
        organization_id uuid not null,
        lead_id bigint not null references leads (id) on delete cascade deferrable initially deferred,
        assignee_ids uuid[] not null default '{}',
        created_by uuid not null,
        title text not null,
        status text not null check (status in ('open', 'won', 'lost')),
        stage text not null check (stage in ('qualified', 'viewing', 'offer', 'reserved', 'under_contract')),
        amount numeric(14, 2) null check (amount >= 0),
        currency text not null,
        property_listing_id uuid null,
        expected_close_at timestamptz null,
        won_at timestamptz null,
        lost_at timestamptz null,
        lost_reason text null,
        stage_changed_at timestamptz not null,
        commission_mode text not null default 'percentage' check (commission_mode in ('exact', 'percentage')),
        commission_amount numeric(14, 2) null check (commission_amount >= 0),
        commission_percent numeric(5, 2) null check (commission_percent between 0 and 100),
        invoice_number text null,
        estimated_collection_at timestamptz null,
        collected_at timestamptz null,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        closed_at timestamptz generated always as (
          case status when 'won' then won_at when 'lost' then lost_at end
        ) stored
      );
      -- the list's order, per agency; the lead's deals (with leadId); the person's deals (GIN)
      create index deals_org_recent_idx on deals (organization_id, updated_at desc, id desc);
      create index deals_lead_recent_idx on deals (lead_id, updated_at desc, id desc);
      create index deals_assignees_idx on deals using gin (assignee_ids);
      -- open deals: the calendar's expected closes and the open-deal facts
      create index deals_open_close_idx on deals (organization_id, expected_close_at) where status = 'open';
      create index deals_org_status_idx on deals (organization_id, status, updated_at desc);
      create index deals_org_stage_idx on deals (organization_id, stage, updated_at desc);
      create index deals_title_trgm_idx on deals using gin (lower(title) gin_trgm_ops);
      create index deals_org_listing_idx on deals (organization_id, property_listing_id)
        where property_listing_id is not null;
      create index deals_org_amount_idx on deals (organization_id, amount) where amount is not null;
      create index deals_org_expected_close_idx on deals (organization_id, expected_close_at)
        where expected_close_at is not null;
      create index deals_org_created_idx on deals (organization_id, created_at);
      create index deals_org_closed_idx on deals (organization_id, closed_at) where closed_at is not null;
      create index deals_org_invoiced_idx on deals (organization_id, updated_at desc)
        where invoice_number is not null and collected_at is null;
      create index deals_org_collected_idx on deals (organization_id, collected_at)
        where collected_at is not null;

      create table deal_participants (
        id uuid primary key,
        deal_id uuid not null references deals (id) on delete cascade,
        user_id uuid not null,
        role text not null check (role in ('listing', 'selling', 'referral', 'other')),
        percent numeric(5, 2) not null check (percent between 0 and 100),
        position smallint not null,
        constraint deal_participants_once unique (deal_id, user_id, role) deferrable initially deferred
      );
    `);
  }
}
