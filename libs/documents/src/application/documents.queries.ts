import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { AppConfig, Clock, offsetResult, preparedRows, Principal, type OffsetResult } from '@app/platform';
import { authorize, viewerOf } from '../domain/document-access';
import { Document } from '../domain/document.entity';
import { DocumentRepository } from '../domain/document.repository';
import {
  toDocumentJson,
  toDocumentRowJson,
  type DocumentJson,
  type DocumentRowJson,
} from '../views/document.view';
import { DocumentAttachmentsReader } from './document-attachments';
import { documentListStatement, type DocumentListFilters, type DocumentRowRecord } from './document-list.sql';

export interface DocumentListQuery extends DocumentListFilters {
  offset: number;
  limit: number;
}

/** Timestamps come back as text from this connection's parsers. */
const dateOrNull = (value: string | Date | null): Date | null => (value === null ? null : new Date(value));

/**
 * A list row as a (body-less) Document, so the one view renders it; never flushed. A share whose
 * time has passed shows as revoked already (the sweep writes it within a minute).
 */
function rowDocument(row: DocumentRowRecord, now: Date): Document {
  const document = Object.assign(Object.create(Document.prototype) as Document, {
    id: row.id,
    title: row.title,
    kind: row.kind,
    visibility: row.visibility,
    sizeBytes: Number(row.size_bytes),
    createdBy: row.created_by,
    assigneeIds: row.assignee_ids,
    folderId: row.folder_id,
    shareToken: row.share_token,
    shareExpiresAt: dateOrNull(row.share_expires_at),
    shareRevokedAt: dateOrNull(row.share_revoked_at),
    attachedListingIds: row.attached_listing_ids,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  });
  document.expireShare(now);
  return document;
}

/** Reads of documents: the list (one statement, exact total) and the full document. */
@Injectable()
export class DocumentsQueries {
  constructor(
    private readonly em: EntityManager,
    private readonly documents: DocumentRepository,
    private readonly attachments: DocumentAttachmentsReader,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async list(actor: Principal, query: DocumentListQuery): Promise<OffsetResult<DocumentRowJson>> {
    const statement = documentListStatement(
      actor.organizationId,
      viewerOf(actor),
      query,
      query.offset,
      query.limit,
    );
    // the text varies with the filter set: pg's unnamed statement, planned with the values
    const rows = await preparedRows<DocumentRowRecord & { total: string }>(this.em, statement, {
      prepare: false,
    });
    const found = rows.filter((row) => row.id !== null);
    const counts = await this.attachments.counts(found.map((row) => row.id));
    const now = this.clock.now();
    const data = found.map((row) =>
      toDocumentRowJson(rowDocument(row, now), counts.get(row.id) ?? 0, this.config.publicBaseUrl),
    );
    return offsetResult(data, query.offset, Number(rows[0]?.total ?? 0));
  }

  /** The whole document; a share whose time has passed is written as revoked on the way. */
  async get(actor: Principal, documentId: string): Promise<DocumentJson> {
    const document = authorize(
      'see',
      await this.documents.findInOrg(actor.organizationId, { id: documentId }),
      viewerOf(actor),
    );
    if (document.expireShare(this.clock.now())) await this.em.flush();
    return this.json(actor, document);
  }

  /** The full view of a document the caller sees. */
  async json(actor: Principal, document: Document): Promise<DocumentJson> {
    return toDocumentJson(document, await this.attachments.of(actor, document.id), this.config.publicBaseUrl);
  }
}
