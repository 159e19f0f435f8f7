import { Migration } from '@mikro-orm/migrations';

/** Identity: organizations, people, memberships, sessions, invitations, teams, tags. */
export class Migration20261122000000_identity extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table organizations (
        id uuid primary key,
        name text not null,
        plan_active boolean not null default true,
        disabled boolean not null default false,
        currency text not null default 'EUR',
        created_at timestamptz not null,
        updated_at timestamptz not null
      );

      create table users (
        id uuid primary key,
        email text not null,
        password_hash text not null,
        first_name text not null,
        last_name text not null,
        image_url text null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      -- emails are unique whatever their case
      create unique index users_email_unique on users (lower(email));

      create table memberships (
        id uuid primary key,
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        user_id uuid not null references users (id) on delete cascade deferrable initially deferred,
        role text not null check (role in ('admin', 'member')),
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create unique index memberships_user_unique on memberships (user_id);
      create index memberships_organization_idx on memberships (organization_id, role);

      create table sessions (
        id uuid primary key,
        token_hash text not null,
        user_id uuid not null references users (id) on delete cascade deferrable initially deferred,
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        expires_at timestamptz not null,
        revoked_at timestamptz null,
        created_at timestamptz not null
      );
      create unique index sessions_token_hash_unique on sessions (token_hash);
      create index sessions_user_idx on sessions (user_id);
      create index sessions_expires_at_idx on sessions (expires_at);

      create table invitations (
        id uuid primary key,
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        email text not null,
        role text not null check (role in ('admin', 'member')),
        token_hash text not null,
        invited_by_id uuid not null,
        expires_at timestamptz not null,
        accepted_at timestamptz null,
        created_at timestamptz not null
      );
      create unique index invitations_token_hash_unique on invitations (token_hash);
      create index invitations_expires_at_idx on invitations (expires_at);

      create table teams (
        id uuid primary key,
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        name text not null,
        color text null,
        member_ids text[] not null default '{}',
        archived_at timestamptz null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create index teams_organization_idx on teams (organization_id, name);

      create table tags (
        id uuid primary key,
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        name text not null,
        color text not null,
        created_by uuid not null,
        archived_at timestamptz null,
        assignee_ids text[] not null default '{}',
        team_ids text[] not null default '{}',
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      -- one live tag per name in an agency
      create unique index tags_live_name_unique on tags (organization_id, lower(name)) where archived_at is null;
    `);
  }
}
