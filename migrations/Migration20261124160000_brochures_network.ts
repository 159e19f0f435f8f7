import { Migration } from '@mikro-orm/migrations';

/**
 * Brochures and the network (issue 17): brochures with their listing snapshots and the leads they
 * were sent to; open houses and RSVPs; collections, their items and members; buyer requests; the
 * indexes the viewing reads need.
 * - `brochures.status` stores `active` or `revoked`; `expired` is read from `expires_at` (a read shows
 *   it at once, the expiry job writes `expired_at` for the record). `view_count` is kept by one UPDATE
 *   per counted view.
 * - `brochure_listings.snapshot` is the listing record as read (never `commission`); `edits` holds
 *   `{title?, hiddenFields?}`, which a refresh keeps.
 */
export class Migration20261124160000_brochures_network extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table brochures (
        id uuid primary key,
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        slug text not null,
        title text not null,
        recipient_name text null,
        recipient_note text null,
        status text not null check (status in ('active', 'revoked')),
        show_locations boolean not null default true,
        theme_name text not null default 'classic',
        accent_color_override text null,
        agent_user_id uuid not null,
        creator_user_id uuid not null,
        lead_ids bigint[] not null default '{}',
        expires_in_days integer not null,
        expires_at timestamptz not null,
        expired_at timestamptz null,
        revoked_at timestamptz null,
        view_count integer not null default 0,
        last_viewed_at timestamptz null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create unique index brochures_slug_unique on brochures (slug);
      create index brochures_org_created_idx on brochures (organization_id, created_at desc, id desc);
      create index brochures_org_creator_idx on brochures (organization_id, creator_user_id, created_at desc, id desc);
      create index brochures_title_prefix_idx on brochures (organization_id, lower(title) text_pattern_ops);
      create index brochures_recipient_prefix_idx on brochures (organization_id, lower(recipient_name) text_pattern_ops);
      -- a lead's timeline: the brochures sent to it
      create index brochures_leads_gin on brochures using gin (lead_ids);
      create index brochures_due_idx on brochures (expires_at) where status = 'active' and expired_at is null;

      create table brochure_listings (
        id uuid primary key,
        brochure_id uuid not null references brochures (id) on delete cascade deferrable initially deferred,
        organization_id uuid not null,
        position integer not null,
        source text not null,
        source_id text not null,
        country text null,
        snapshot jsonb not null,
        edits jsonb not null default '{}',
        refreshed_at timestamptz not null,
        created_at timestamptz not null
      );
      create index brochure_listings_brochure_idx on brochure_listings (brochure_id, position);
      create unique index brochure_listings_same_unique on brochure_listings (brochure_id, source, source_id, coalesce(country, ''));

      create index viewings_org_at_idx on viewings (organization_id, viewing_at desc, id desc);
      create index viewings_listing_idx on viewings (organization_id, property_listing_id) where property_listing_id is not null;
      create index viewings_deal_idx on viewings (deal_id) where deal_id is not null;
      create index viewings_collaborator_idx on viewings (organization_id, collaborator_lead_id) where collaborator_lead_id is not null;
      create index viewings_agent_at_idx on viewings (organization_id, agent_user_id, viewing_at desc);

      create table open_houses (
        id uuid primary key,
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        slug text not null,
        property_listing_id uuid not null references listings (id) deferrable initially deferred,
        starts_at timestamptz not null,
        ends_at timestamptz not null,
        timezone text not null,
        status text not null check (status in ('scheduled', 'cancelled')),
        visibility text not null check (visibility in ('network', 'agency')),
        host_user_id uuid not null,
        commission_notes text null,
        contact_name text null,
        contact_phone text null,
        invitation jsonb not null default '{}',
        created_by uuid not null,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        check (ends_at > starts_at)
      );
      create unique index open_houses_slug_unique on open_houses (slug);
      create index open_houses_network_idx on open_houses (ends_at, starts_at) where visibility = 'network' and status = 'scheduled';
      create index open_houses_org_idx on open_houses (organization_id, starts_at desc);
      create index open_houses_listing_idx on open_houses (property_listing_id);

      create table open_house_rsvps (
        open_house_id uuid not null references open_houses (id) on delete cascade deferrable initially deferred,
        user_id uuid not null,
        organization_id uuid not null,
        status text not null check (status in ('going', 'maybe', 'not_going')),
        updated_at timestamptz not null,
        primary key (open_house_id, user_id)
      );

      create table collections (
        id uuid primary key,
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        name text not null,
        created_by uuid not null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create index collections_org_idx on collections (organization_id, updated_at desc);

      create table collection_members (
        collection_id uuid not null references collections (id) on delete cascade deferrable initially deferred,
        user_id uuid not null,
        primary key (collection_id, user_id)
      );
      create index collection_members_user_idx on collection_members (user_id);

      create table collection_items (
        id uuid primary key,
        collection_id uuid not null references collections (id) on delete cascade deferrable initially deferred,
        source text not null,
        source_id text not null,
        country text null,
        snapshot jsonb null,
        created_by uuid not null,
        created_at timestamptz not null
      );
      create unique index collection_items_same_unique on collection_items (collection_id, source, source_id, coalesce(country, ''));
      create index collection_items_newest_idx on collection_items (collection_id, created_at desc, id desc);

      create table buyer_requests (
        id uuid primary key,
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        created_by uuid not null,
        lead_id bigint null,
        operation text not null check (operation in ('sale', 'rent')),
        property_types text[] not null,
        country_code text not null,
        areas text[] not null,
        price_max numeric(16, 2) not null,
        currency text not null,
        bedrooms_min integer null,
        notes text null,
        status text not null check (status in ('open', 'closed')),
        closed_at timestamptz null,
        expires_at timestamptz not null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create index buyer_requests_creator_idx on buyer_requests (created_by, created_at desc);
      create index buyer_requests_open_idx on buyer_requests (country_code, operation, created_at desc)
        where status = 'open';
    `);
  }
}
