import { Migration } from '@mikro-orm/migrations';

/**
 * Documents (issue 15): the library's documents, folders, personal pins and lead attachments.
 * - `app_unaccent(text)`: `unaccent` with its dictionary named, declared IMMUTABLE so expression
 *   indexes and the generated column may use it (the extension's own function is only STABLE).
 * - Search: the title by accent- and case-insensitive contains (trigram GIN on
 *   `app_unaccent(lower(title))`), the body by full-text words (`body_tsv`, `simple` config over the
 *   unaccented body). The tsvector covers the first 100,000 characters: a tsvector holds at most
 *   1 MB, which a 1,000,000-character body of distinct words could pass.
 * - A share token is unique while set; a folder name is unique among its siblings (case-insensitive).
 * - `document_gone_links`: tokens of deleted documents and of shares a new share replaced (410).
 */
export class Migration20261124130000_documents extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create extension if not exists unaccent;
      create extension if not exists pg_trgm;
      create or replace function app_unaccent(value text) returns text
        language sql immutable parallel safe strict
        as $$ select public.unaccent('public.unaccent'::regdictionary, value) $$;

      create table document_folders (
        id uuid primary key,
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        name text not null,
        parent_id uuid null references document_folders (id) deferrable initially deferred,
        created_by uuid not null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create unique index document_folders_sibling_name_unique on document_folders
        (organization_id, coalesce(parent_id, '00000000-0000-0000-0000-000000000000'::uuid), lower(name));
      create index document_folders_parent_idx on document_folders (parent_id);

      create table documents (
        id uuid primary key,
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        title text not null,
        kind text not null check (kind in ('markdown', 'whiteboard', 'pdf', 'file')),
        body text not null default '',
        visibility text not null check (visibility in ('private', 'organization', 'public')),
        created_by uuid not null,
        assignee_ids uuid[] not null default '{}',
        folder_id uuid null references document_folders (id) deferrable initially deferred,
        share_token text null,
        share_expires_at timestamptz null,
        share_revoked_at timestamptz null,
        size_bytes bigint not null default 0,
        file jsonb null,
        scene jsonb null,
        attached_listing_ids text[] not null default '{}',
        created_at timestamptz not null,
        updated_at timestamptz not null,
        body_tsv tsvector generated always as (to_tsvector('simple', app_unaccent(left(body, 100000)))) stored
      );
      -- the list's default order, per agency
      create index documents_org_updated_idx on documents (organization_id, updated_at desc, id);
      create index documents_org_folder_idx on documents (organization_id, folder_id);
      create index documents_title_trgm_idx on documents using gin (app_unaccent(lower(title)) gin_trgm_ops);
      create index documents_body_tsv_idx on documents using gin (body_tsv);
      create unique index documents_share_token_unique on documents (share_token) where share_token is not null;
      -- the expiry sweep
      create index documents_share_expiry_idx on documents (share_expires_at)
        where visibility = 'public' and share_expires_at is not null;

      create table document_pins (
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        user_id uuid not null,
        document_id uuid not null references documents (id) on delete cascade deferrable initially deferred,
        pinned_at timestamptz not null,
        primary key (user_id, document_id)
      );
      create index document_pins_document_idx on document_pins (document_id);

      create table document_lead_attachments (
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        document_id uuid not null references documents (id) on delete cascade deferrable initially deferred,
        lead_id bigint not null references leads (id) on delete cascade deferrable initially deferred,
        attached_by uuid not null,
        attached_at timestamptz not null,
        primary key (document_id, lead_id)
      );
      create index document_lead_attachments_lead_idx on document_lead_attachments (lead_id, attached_at desc);

      -- the lead timeline's \`document\` entries: every attach and detach (the attachment row keeps
      -- only the first receipt, and a detach removes it)
      create table document_lead_events (
        id uuid primary key,
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        lead_id bigint not null references leads (id) on delete cascade deferrable initially deferred,
        document_id uuid not null,
        action text not null check (action in ('attached', 'detached')),
        actor_id uuid null,
        at timestamptz not null
      );
      create index document_lead_events_lead_idx on document_lead_events (lead_id, at desc);

      -- links that worked once: a deleted document's, or one a later share replaced; the public
      -- page answers 410 for them (an unknown token is 404)
      create table document_gone_links (
        token text primary key,
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        gone_at timestamptz not null
      );
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop table if exists document_gone_links;
      drop table if exists document_lead_events;
      drop table if exists document_lead_attachments;
      drop table if exists document_pins;
      drop table if exists documents;
      drop table if exists document_folders;
      drop function if exists app_unaccent(text);
    `);
  }
}
