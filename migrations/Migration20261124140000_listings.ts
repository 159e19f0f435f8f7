import { Migration } from '@mikro-orm/migrations';

/**
 * Listings (issue 16): the agent roster, listings (own and imported from feeds), their history,
 * media, portal publications, connected feeds, and the portal allowance and cache.
 * - `agents`: one row per member (backfilled here; identity keeps it in step) plus standalone
 *   agents. A listing's agent is a foreign key, so deleting an agent in use fails (409).
 * - `listings`: one table for the agency's own listings (`source` `internal`) and the rows a
 *   connected feed imported (`source` the feed, `external_id` its id), so one filter compiler and
 *   one set of indexes serve `/properties/search` and `/property-sources/{feed}/search`.
 *   `location` is a generated `point(lon, lat)` behind a GiST index (bounding boxes);
 *   `living_area_sqm`/`plot_area_sqm` are generated in m² (sqft converted) for the area filters.
 * - `portal_allowance`: 300 upstream portal calls per organization per UTC day, reserved by
 *   `update … set used = used + 1 where used < 300`; `portal_cache` is shared across agencies.
 */
export class Migration20261124140000_listings extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table agents (
        id uuid primary key,
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        clerk_user_id uuid null,
        first_name text null,
        last_name text null,
        avatar_url text null,
        avatar_thumbnail_url text null,
        display_email text null,
        phone_number text null,
        whatsapp_number text null,
        description text null,
        title text null,
        is_active boolean not null default true,
        share_contact_on_network boolean not null default false,
        additional_info jsonb null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create unique index agents_member_unique on agents (organization_id, clerk_user_id) where clerk_user_id is not null;
      create index agents_org_name_idx on agents (organization_id, is_active, last_name, first_name, id);

      insert into agents (id, organization_id, clerk_user_id, first_name, last_name, avatar_url,
                          display_email, is_active, share_contact_on_network, created_at, updated_at)
      select gen_random_uuid(), m.organization_id, u.id, u.first_name, u.last_name, u.image_url,
             u.email, true, false, m.created_at, m.updated_at
        from memberships m join users u on u.id = m.user_id;

      create table media (
        id uuid primary key,
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        sha256 text not null,
        mime_type text not null,
        extension text not null,
        size_bytes integer not null,
        width integer not null,
        height integer not null,
        created_by uuid not null,
        created_at timestamptz not null
      );
      create index media_org_hash_idx on media (organization_id, sha256);

      create table listings (
        id uuid primary key,
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        source text not null default 'internal',
        external_id text null,
        reference text null,
        title text not null,
        description text null,
        operation text not null check (operation in ('sale', 'rent')),
        property_type text not null,
        status text not null check (status in ('DRAFT', 'ACTIVE', 'RESERVED', 'SOLD', 'RENTED', 'WITHDRAWN', 'EXPIRED')),
        price numeric(16, 2) not null check (price >= 0),
        currency text not null,
        rent_period text null,
        country_code text not null,
        region text null,
        city text not null,
        community text null,
        postal_code text null,
        address_line1 text null,
        address_line2 text null,
        lat double precision null,
        lon double precision null,
        location point generated always as (case when lat is not null and lon is not null then point(lon, lat) end) stored,
        show_exact_location boolean not null default false,
        bedrooms integer null,
        bathrooms numeric(4, 1) null,
        area_unit text not null default 'sqm' check (area_unit in ('sqm', 'sqft')),
        living_area numeric(12, 2) null,
        plot_area numeric(12, 2) null,
        living_area_sqm numeric(12, 2) generated always as (case when area_unit = 'sqft' then round(living_area * 0.09290304, 2) else living_area end) stored,
        plot_area_sqm numeric(12, 2) generated always as (case when area_unit = 'sqft' then round(plot_area * 0.09290304, 2) else plot_area end) stored,
        floor text null,
        year_built integer null,
        parking_spaces integer null,
        furnished text null,
        condition text null,
        energy_rating text null,
        energy_rating_details text null,
        energy_consumption_kwh numeric(12, 2) null,
        co2_emissions numeric(12, 2) null,
        features text[] not null default '{}',
        additional_features jsonb null,
        commission numeric(5, 2) null,
        shared_commission numeric(5, 2) null,
        community_fees_per_year numeric(14, 2) null,
        basura_per_year numeric(14, 2) null,
        available_from date null,
        completion_date date null,
        images jsonb not null default '[]',
        video_url text null,
        virtual_tour_url text null,
        network_visible boolean not null default true,
        auto_renew_enabled boolean not null default false,
        expires_at timestamptz null,
        agent_id uuid null references agents (id) deferrable initially deferred,
        created_by uuid null,
        version integer not null default 1,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        deleted_at timestamptz null
      );
      -- own lists and sorts, per agency and source, live rows only
      create index listings_org_created_idx on listings (organization_id, source, created_at desc, id) where deleted_at is null;
      create index listings_org_updated_idx on listings (organization_id, source, updated_at desc, id) where deleted_at is null;
      create index listings_org_price_idx on listings (organization_id, source, price, id) where deleted_at is null;
      create index listings_org_city_idx on listings (organization_id, lower(city)) where deleted_at is null;
      create index listings_agent_idx on listings (agent_id) where agent_id is not null;
      create unique index listings_reference_unique on listings (organization_id, lower(reference))
        where reference is not null and deleted_at is null and source = 'internal';
      create unique index listings_feed_external_unique on listings (organization_id, source, external_id)
        where external_id is not null;
      -- the network: other agencies' ACTIVE, visible, own listings
      create index listings_network_idx on listings (created_at desc, id)
        where status = 'ACTIVE' and network_visible and deleted_at is null and source = 'internal';
      create index listings_location_gist on listings using gist (location) where deleted_at is null;
      create index listings_features_gin on listings using gin (features) where deleted_at is null;
      create index listings_text_trgm_idx on listings using gin
        (app_unaccent(lower(title || ' ' || coalesce(reference, '') || ' ' || coalesce(address_line1, ''))) gin_trgm_ops)
        where deleted_at is null;
      -- the expiry job: due listings that can still expire
      create index listings_expiry_idx on listings (expires_at)
        where deleted_at is null and source = 'internal' and status not in ('EXPIRED', 'SOLD', 'RENTED', 'WITHDRAWN');

      create table listing_history (
        id uuid primary key,
        organization_id uuid not null,
        listing_id uuid not null references listings (id) on delete cascade deferrable initially deferred,
        at timestamptz not null,
        source text not null,
        changed_by uuid null,
        changed_fields text[] not null default '{}'
      );
      create index listing_history_listing_idx on listing_history (listing_id, at desc, id desc);

      create table listing_publications (
        listing_id uuid not null references listings (id) on delete cascade deferrable initially deferred,
        portal text not null,
        organization_id uuid not null,
        enabled boolean not null,
        status text not null check (status in ('pending', 'published', 'failed', 'unpublished')),
        external_id text null,
        published_at timestamptz null,
        last_error text null,
        attempts integer not null default 0,
        next_attempt_at timestamptz null,
        updated_at timestamptz not null,
        primary key (listing_id, portal)
      );
      create index listing_publications_due_idx on listing_publications (next_attempt_at) where next_attempt_at is not null;

      create table property_feeds (
        id uuid primary key,
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        source text not null check (source in ('kyero', 'redsp', 'jsonfeed')),
        url text not null,
        refresh_minutes integer not null check (refresh_minutes >= 60),
        last_imported_at timestamptz null,
        last_status text null,
        last_error text null,
        listing_count integer not null default 0,
        next_import_at timestamptz not null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create unique index property_feeds_org_source_unique on property_feeds (organization_id, source);
      create index property_feeds_due_idx on property_feeds (next_import_at);

      create table portal_allowance (
        organization_id uuid not null,
        day date not null,
        used integer not null default 0,
        primary key (organization_id, day)
      );

      create table portal_cache (
        cache_key text primary key,
        body jsonb not null,
        expires_at timestamptz not null
      );
      create index portal_cache_expires_idx on portal_cache (expires_at);
    `);
  }
}
