import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { preparedRows } from '@app/platform';
import {
  SEARCH_SOURCE_KINDS,
  type SearchDocument,
  type SearchIndexer,
  type SearchSourceKind,
} from '../extension-points/search-indexer';
import type { Direction, EmailSource } from '../domain/records';
import {
  type AnalysisText,
  analysisSearchText,
  emailIsUntrusted,
  emailSearchText,
  messageIsUntrusted,
  taskSearchText,
  TRANSCRIPT_IS_UNTRUSTED,
} from '../domain/search-texts';
import {
  chunkCountStatement,
  orphanChunksStatement,
  redatedCallStatement,
  SEARCH_PAGE_SIZE,
  searchSourcePageStatement,
} from './search-documents.sql';

/**
 * Issue 18 item 1: each searchable record as the index takes it. The services call these on every
 * write and `SearchDocuments` on a rebuild, so a rebuilt index equals the incremental one.
 */

interface Owned {
  id: string;
  organizationId: string;
  leadId: number;
}

/** A note: its content, when it happened (else when written); the lead's language. */
export const noteDocument = (
  note: Owned & { content: string; occurredAt: Date | null; createdAt: Date },
): SearchDocument => ({
  organizationId: note.organizationId,
  leadId: note.leadId,
  kind: 'note',
  sourceId: note.id,
  occurredAt: note.occurredAt ?? note.createdAt,
  text: note.content,
  untrusted: false,
  language: null,
});

export const taskDocument = (
  task: Owned & { title: string; description: string | null; createdAt: Date },
): SearchDocument => ({
  organizationId: task.organizationId,
  leadId: task.leadId,
  kind: 'task',
  sourceId: task.id,
  occurredAt: task.createdAt,
  text: taskSearchText(task.title, task.description),
  untrusted: false,
  language: null,
});

export const messageDocument = (
  message: Owned & { body: string; direction: Direction; at: Date },
): SearchDocument => ({
  organizationId: message.organizationId,
  leadId: message.leadId,
  kind: 'message',
  sourceId: message.id,
  occurredAt: message.at,
  text: message.body,
  untrusted: messageIsUntrusted(message.direction),
  language: null,
});

export const emailDocument = (
  email: Owned & {
    subject: string;
    bodyText: string;
    source: EmailSource;
    captureDirection: Direction | null;
    messageAt: Date;
  },
): SearchDocument => ({
  organizationId: email.organizationId,
  leadId: email.leadId,
  kind: 'email',
  sourceId: email.id,
  occurredAt: email.messageAt,
  text: emailSearchText(email.subject, email.bodyText),
  untrusted: emailIsUntrusted(email.source, email.captureDirection),
  language: null,
});

/** A call's transcript (`id` the call's), in the language the connector detected. */
export const transcriptDocument = (
  call: Owned & { transcript: string; detectedLanguage: string | null; startedAt: Date },
): SearchDocument => ({
  organizationId: call.organizationId,
  leadId: call.leadId,
  kind: 'transcript',
  sourceId: call.id,
  occurredAt: call.startedAt,
  text: call.transcript,
  untrusted: TRANSCRIPT_IS_UNTRUSTED,
  language: call.detectedLanguage,
});

/** A call's analysis (`id` the call's): written by the agency's tooling, in the lead's language. */
export const analysisDocument = (
  call: Owned & { analysis: AnalysisText; startedAt: Date },
): SearchDocument => ({
  organizationId: call.organizationId,
  leadId: call.leadId,
  kind: 'analysis',
  sourceId: call.id,
  occurredAt: call.startedAt,
  text: analysisSearchText(call.analysis),
  untrusted: false,
  language: null,
});

/** A page row: the record's id and lead, then its kind's columns (search-documents.sql.ts). */
type SourceRow = Record<string, unknown> & { id: string; lead_id: string | number };

const at = (value: unknown): Date => (value instanceof Date ? value : new Date(value as string));
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const optional = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** A stored analysis (jsonb) as the text rule reads it; missing lists read as empty. */
function storedAnalysis(value: unknown): AnalysisText {
  const stored = (typeof value === 'string' ? JSON.parse(value) : value) as Partial<AnalysisText> | null;
  return {
    summary: text(stored?.summary),
    objections: stored?.objections ?? [],
    nextSteps: stored?.nextSteps ?? [],
    coachingTips: stored?.coachingTips ?? [],
  };
}

/** A page row as its document: the same builders as the writes. */
export function documentOfRow(
  organizationId: string,
  kind: SearchSourceKind,
  row: SourceRow,
): SearchDocument {
  const owned = { id: row.id, organizationId, leadId: Number(row.lead_id) };
  switch (kind) {
    case 'note':
      return noteDocument({
        ...owned,
        content: text(row.content),
        occurredAt: row.occurred_at == null ? null : at(row.occurred_at),
        createdAt: at(row.created_at),
      });
    case 'task':
      return taskDocument({
        ...owned,
        title: text(row.title),
        description: optional(row.description),
        createdAt: at(row.created_at),
      });
    case 'message':
      return messageDocument({
        ...owned,
        body: text(row.body),
        direction: row.direction as Direction,
        at: at(row.at),
      });
    case 'email':
      return emailDocument({
        ...owned,
        subject: text(row.subject),
        bodyText: text(row.body_text),
        source: row.source as EmailSource,
        captureDirection: optional(row.capture_direction) as Direction | null,
        messageAt: at(row.message_at),
      });
    case 'transcript':
      return transcriptDocument({
        ...owned,
        transcript: text(row.transcript),
        detectedLanguage: optional(row.detected_language),
        startedAt: at(row.started_at),
      });
    case 'analysis':
      return analysisDocument({
        ...owned,
        analysis: storedAnalysis(row.analysis),
        startedAt: at(row.started_at),
      });
  }
}

/** What `search:reindex` did. */
export interface SearchReindexJson {
  organizationId: string;
  /** Records read and indexed again (a call counts once for its transcript, once for its analysis). */
  documents: number;
  /** Passages the organization's index holds afterwards. */
  chunks: number;
  /** Passages deleted because their record is gone. */
  removed: number;
  /** Wall time of the rebuild. */
  ms: number;
}

/**
 * The organization's records as `SearchDocument` batches, and the rebuild of its search index
 * from them (`npm run ops -- search:reindex`): a kind at a time, a page of 500 records per
 * transaction (read share-locked, then `upsertSources`), then the passages of vanished records go.
 */
@Injectable()
export class SearchDocuments {
  constructor(private readonly em: EntityManager) {}

  /** One page of a kind after `afterId` (null: from the start), in `em`'s transaction when given. */
  async page(
    organizationId: string,
    kind: SearchSourceKind,
    afterId: string | null,
    em: EntityManager = this.em,
  ): Promise<SearchDocument[]> {
    const rows = await preparedRows<SourceRow>(em, searchSourcePageStatement(organizationId, kind, afterId));
    return rows.map((row) => documentOfRow(organizationId, kind, row));
  }

  /**
   * A call's transcript and analysis documents when their passages no longer carry the call's
   * start (a connector corrected `startedAt`); none otherwise. In the write's transaction.
   */
  async redatedCall(em: EntityManager, organizationId: string, callId: string): Promise<SearchDocument[]> {
    const [row] = await preparedRows<SourceRow>(em, redatedCallStatement(organizationId, callId));
    if (!row) return [];
    return (['transcript', 'analysis'] as const)
      .filter((kind) => row[kind] != null)
      .map((kind) => documentOfRow(organizationId, kind, row));
  }

  /** Rebuilds every passage of the organization with `indexer` (the search context's). */
  async rebuild(
    organizationId: string,
    indexer: SearchIndexer,
    progress: (line: string) => void = () => undefined,
  ): Promise<SearchReindexJson> {
    const started = Date.now();
    let documents = 0;
    let removed = 0;
    for (const kind of SEARCH_SOURCE_KINDS) {
      let afterId: string | null = null;
      let ofKind = 0;
      for (;;) {
        const batch: SearchDocument[] = await this.em.fork().transactional(async (em) => {
          const page = await this.page(organizationId, kind, afterId, em);
          await indexer.upsertSources(em, page);
          return page;
        });
        ofKind += batch.length;
        if (batch.length < SEARCH_PAGE_SIZE) break;
        afterId = batch[batch.length - 1].sourceId;
      }
      const [gone] = await preparedRows<{ removed: string }>(
        this.em.fork(),
        orphanChunksStatement(organizationId, kind),
      );
      removed += Number(gone.removed);
      documents += ofKind;
      progress(`${kind}: ${ofKind} records indexed, ${gone.removed} orphaned passages removed`);
    }
    const [total] = await preparedRows<{ chunks: string }>(
      this.em.fork(),
      chunkCountStatement(organizationId),
    );
    return { organizationId, documents, chunks: Number(total.chunks), removed, ms: Date.now() - started };
  }
}
