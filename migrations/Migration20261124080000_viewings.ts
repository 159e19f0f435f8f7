import { Migration } from '@mikro-orm/migrations';

/**
 * Viewings (spec: Viewing), the network context's first aggregate. Connectors write them by their
 * id (unique per organization and connector; a viewing made on `/v1` has none, and NULLs never
 * conflict). Read by lead (timeline), by agent and time (calendar, free-times).
 */
export class Migration20261124080000_viewings extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table viewings (
        id uuid primary key,
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        lead_id bigint not null references leads (id) on delete cascade deferrable initially deferred,
        property_listing_id uuid null,
        other_lead_ids bigint[] not null default '{}',
        collaborator_lead_id bigint null references leads (id) on delete set null deferrable initially deferred,
        agent_user_id uuid null,
        deal_id uuid null,
        viewing_at timestamptz not null,
        kind text not null check (kind in ('in_person', 'virtual')),
        status text not null check (status in ('scheduled', 'completed', 'cancelled', 'no_show')),
        notes text null,
        source text not null,
        connector text null,
        external_id text null,
        created_by uuid null,
        actor text null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create unique index viewings_external_unique on viewings (organization_id, connector, external_id);
      create index viewings_lead_idx on viewings (lead_id, viewing_at desc);
      create index viewings_other_leads_idx on viewings using gin (other_lead_ids);
      create index viewings_agent_scheduled_idx on viewings (organization_id, agent_user_id, viewing_at)
        where status = 'scheduled';
    `);
  }
}
