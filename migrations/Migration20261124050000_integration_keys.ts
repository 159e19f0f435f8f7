import { Migration } from '@mikro-orm/migrations';

/**
 * Integration keys (INTERFACES.md "Ingestion"): organization-owned keys of connectors, kept as a
 * SHA-256 plus the first 12 characters; the door looks them up by hash.
 */
export class Migration20261124050000_integration_keys extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table integration_keys (
        id uuid primary key,
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        name text not null,
        connector text not null check (connector ~ '^[a-z0-9][a-z0-9-]{0,39}$'),
        key_hash text not null,
        prefix_hint text not null,
        created_by_id uuid not null,
        created_at timestamptz not null,
        last_used_at timestamptz null,
        revoked_at timestamptz null
      );
      create unique index integration_keys_key_hash_unique on integration_keys (key_hash);
      create index integration_keys_organization_idx on integration_keys (organization_id, created_at desc);
    `);
  }
}
