import type { EntityManager } from '@mikro-orm/postgresql';
import { applyDecorators, Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService, Reflector } from '@nestjs/core';
import { discoverMarked } from './discovered-providers';

/** The CRM records search covers (INTERFACES.md "Search"). */
export const SEARCH_SOURCE_KINDS = ['note', 'transcript', 'analysis', 'message', 'email', 'task'] as const;
export type SearchSourceKind = (typeof SEARCH_SOURCE_KINDS)[number];

/**
 * One searchable text of a lead, as the CRM hands it over: a note, a call's transcript or
 * analysis, a message, an email (subject and body), a task (title and description).
 */
export interface SearchDocument {
  organizationId: string;
  leadId: number;
  kind: SearchSourceKind;
  /** The record's id (a call's id for its transcript and its analysis). */
  sourceId: string;
  occurredAt: Date;
  text: string;
  /** Written by a customer or a third party: inbound messages, inbound emails, transcripts. */
  untrusted: boolean;
  /** The text's own language when known (a transcript's `detectedLanguage`); else the lead's. */
  language: string | null;
}

/**
 * The search index's door for writes. CRM and ingestion services call it with the transaction of
 * the write (`em`), so a committed write is searchable at once and a deleted record leaves the
 * index in the same commit. Search implements it: mark the provider `@SearchIndexerProvider()`.
 */
export interface SearchIndexer {
  /** Replaces whatever the index holds for each document's source. */
  upsertSources(em: EntityManager, documents: SearchDocument[]): Promise<void>;
  /** Forgets these sources. */
  removeSources(
    em: EntityManager,
    organizationId: string,
    kind: SearchSourceKind,
    sourceIds: string[],
  ): Promise<void>;
}

const SEARCH_INDEXER = Reflector.createDecorator<true>();

/** Marks the provider implementing `SearchIndexer` (at most one in an app). */
export const SearchIndexerProvider = () => applyDecorators(Injectable(), SEARCH_INDEXER(true));

/**
 * The app's `SearchIndexer`, found at boot; CRM services call this. Without one (an app without
 * search) nothing is indexed and nothing fails.
 */
@Injectable()
export class SearchIndexing implements SearchIndexer, OnModuleInit {
  private indexer: SearchIndexer | null = null;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly reflector: Reflector,
  ) {}

  onModuleInit(): void {
    const found = discoverMarked<SearchIndexer>(this.discovery, this.reflector, SEARCH_INDEXER);
    if (found.length > 1) throw new Error('Two providers are marked @SearchIndexerProvider(); keep one.');
    this.indexer = found[0] ?? null;
  }

  async upsertSources(em: EntityManager, documents: SearchDocument[]): Promise<void> {
    if (this.indexer && documents.length > 0) await this.indexer.upsertSources(em, documents);
  }

  async removeSources(
    em: EntityManager,
    organizationId: string,
    kind: SearchSourceKind,
    sourceIds: string[],
  ): Promise<void> {
    if (this.indexer && sourceIds.length > 0)
      await this.indexer.removeSources(em, organizationId, kind, sourceIds);
  }
}
