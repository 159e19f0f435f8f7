import { Migration } from '@mikro-orm/migrations';

/**
 * MCP keys (issue 19 item 6; INTERFACES.md "Webhooks and MCP"): `svc_mcp_…` secrets for `POST /mcp`,
 * kept only as their SHA-256 and first 12 characters. A key acts as its owner (`owner_id`) with the
 * owner's current role; a membership newer than the key (the owner left and came back) does not
 * revive it.
 */
export class Migration20261124180200_mcp_keys extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table mcp_keys (
        id uuid primary key,
        organization_id uuid not null references organizations (id) on delete cascade,
        owner_id uuid not null,
        name text not null check (char_length(name) between 1 and 255),
        secret_hash text not null,
        prefix_hint text not null,
        scopes text[] not null,
        created_at timestamptz not null,
        expires_at timestamptz null,
        revoked_at timestamptz null,
        last_used_at timestamptz null
      );
      create unique index mcp_keys_secret_hash_unique on mcp_keys (secret_hash);
      create index mcp_keys_organization_idx on mcp_keys (organization_id, created_at desc, id desc);
      create index mcp_keys_owner_idx on mcp_keys (organization_id, owner_id) where revoked_at is null;
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists mcp_keys');
  }
}
