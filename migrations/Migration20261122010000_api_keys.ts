import { Migration } from '@mikro-orm/migrations';

/** API keys: hashed secrets, scopes, websites, rotation, usage. */
export class Migration20261122010000_api_keys extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table api_keys (
        id uuid primary key,
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        name text not null,
        secret_hash text not null,
        prefix_hint text null,
        legacy boolean not null default false,
        system boolean not null default false,
        scopes text[] not null,
        allowed_origins text[] not null default '{}',
        rate_limit_per_minute integer null check (rate_limit_per_minute > 0),
        created_by_id uuid null,
        created_at timestamptz not null,
        -- when the first key of a rotation chain was made: rotating an older key keeps it older
        lineage_created_at timestamptz not null,
        expires_at timestamptz null,
        revoked_at timestamptz null,
        rotated_to_id uuid null,
        rotated_from_id uuid null,
        grace_until timestamptz null,
        owner_left_at timestamptz null,
        last_used_at timestamptz null,
        last_used_ip text null,
        last_used_user_agent text null,
        usage_count bigint not null default 0,
        updated_at timestamptz not null
      );
      create unique index api_keys_secret_hash_unique on api_keys (secret_hash);
      create index api_keys_organization_idx on api_keys (organization_id, created_at desc);
      create index api_keys_owner_idx on api_keys (created_by_id) where created_by_id is not null;
    `);
  }
}
