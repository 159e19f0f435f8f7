import { Migration } from '@mikro-orm/migrations';

/** The languages with a configuration of their own (ISO 639-1 → the built-in stemmer). */
const LANGUAGES = {
  english: 'english_stem',
  spanish: 'spanish_stem',
  italian: 'italian_stem',
  portuguese: 'portuguese_stem',
  french: 'french_stem',
  german: 'german_stem',
} as const;

/** Every token type that carries letters: accents removed first, then the dictionary. */
const WORD_TOKENS =
  'asciiword, asciihword, hword_asciipart, word, hword, hword_part, numword, numhword, hword_numpart';

/**
 * Semantic search over CRM history (INTERFACES.md "Search"; issue 18).
 *
 * - Text search configurations `app_simple` and `app_<language>`: each word is run through
 *   `unaccent` (a filtering dictionary), then the language's Snowball stemmer (`simple` for
 *   `app_simple`, which keeps every word: names, stop words and all). Built-in dictionaries only,
 *   so the same SQL runs on PostgreSQL 15 and the embedded 18.
 * - `search_config(language)`: the configuration of a language code (`es`, `es-ES`, `pt_BR`…),
 *   `app_simple` for anything else. Immutable, so the index and the query agree.
 * - `search_tsquery_or(tsquery)`: OR of many tsqueries (the query under several configurations).
 * - `search_chunk`: one row per passage of a note, transcript, analysis, message, email or task;
 *   `tsv` = the chunk's language (weight A) plus `app_simple` (weight B), a generated column. A
 *   seam lexeme (`' '`, weight D: no text parses into it) sits between them, since `||` shifts the
 *   right side right after the left's last position: without it the last word of A and the first of
 *   B would be a phrase.
 *   GIN on `tsv`, GIN trigram on `text`, (organization, lead, occurred_at) for reach and dates, and
 *   (organization, occurred_at) so "the newest matches" of a common word can walk the index.
 * - `lead_share`: leads a collaborating agency shared with one of its people (written by the
 *   sharing feature when it lands; search reads it).
 * - `organizations.search_rate_per_minute`: the operators' figure for the shared `search` limit.
 * - `leads (organization_id, language)`: the organization's most used lead languages, counted by an
 *   index-only scan on every search (queues' `lower(language)` index cannot serve one).
 */
export class Migration20261124170000_search extends Migration {
  override async up(): Promise<void> {
    const configurations = Object.entries(LANGUAGES)
      .map(
        ([name, stemmer]) => `
      create text search configuration app_${name} (copy = ${name});
      alter text search configuration app_${name} alter mapping for ${WORD_TOKENS} with unaccent, ${stemmer};`,
      )
      .join('\n');
    this.addSql(`
      create extension if not exists unaccent;
      create extension if not exists pg_trgm;

      create text search configuration app_simple (copy = simple);
      alter text search configuration app_simple alter mapping for ${WORD_TOKENS} with unaccent, simple;
      ${configurations}

      create function search_config(language text) returns regconfig
        language sql immutable parallel safe
        as $$
          select case lower(split_part(replace(coalesce(language, ''), '_', '-'), '-', 1))
            when 'en' then 'app_english'::regconfig
            when 'es' then 'app_spanish'::regconfig
            when 'it' then 'app_italian'::regconfig
            when 'pt' then 'app_portuguese'::regconfig
            when 'fr' then 'app_french'::regconfig
            when 'de' then 'app_german'::regconfig
            else 'app_simple'::regconfig
          end
        $$;

      create aggregate search_tsquery_or(tsquery) (sfunc = tsquery_or, stype = tsquery);

      create table search_chunk (
        id bigint generated always as identity primary key,
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        lead_id bigint not null references leads (id) on delete cascade deferrable initially deferred,
        source_kind text not null check (source_kind in ('note', 'transcript', 'analysis', 'message', 'email', 'task')),
        source_id uuid not null,
        position smallint not null,
        occurred_at timestamptz not null,
        language text not null,
        text text not null,
        untrusted boolean not null,
        tsv tsvector not null generated always as (
          setweight(to_tsvector(search_config(language), text), 'A') || ''' '':1'::tsvector
            || setweight(to_tsvector('app_simple'::regconfig, text), 'B')
        ) stored
      );
      create unique index search_chunk_source_unique on search_chunk (organization_id, source_kind, source_id, position);
      create index search_chunk_tsv_idx on search_chunk using gin (tsv);
      create index search_chunk_text_trgm_idx on search_chunk using gin (text gin_trgm_ops);
      create index search_chunk_lead_idx on search_chunk (organization_id, lead_id, occurred_at desc);
      create index search_chunk_recent_idx on search_chunk (organization_id, occurred_at desc);

      create table lead_share (
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        lead_id bigint not null references leads (id) on delete cascade deferrable initially deferred,
        shared_with_organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        shared_with_user_id uuid not null,
        created_at timestamptz not null,
        primary key (shared_with_organization_id, shared_with_user_id, lead_id)
      );
      create index lead_share_lead_idx on lead_share (organization_id, lead_id);

      alter table organizations add column search_rate_per_minute integer null check (search_rate_per_minute > 0);

      create index leads_org_language_plain_idx on leads (organization_id, language);
    `);
  }
}
