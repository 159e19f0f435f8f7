import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { v7 as uuidv7 } from 'uuid';
import { LeadAccess } from '@app/crm';
import {
  AppConfig,
  cappedResult,
  Clock,
  eventActorOf,
  ListResult,
  notFound,
  Outbox,
  preparedRows,
  Principal,
} from '@app/platform';
import { authorize, viewerOf, visibleDocumentsSql } from '../domain/document-access';
import type { Document } from '../domain/document.entity';
import { DocumentRepository } from '../domain/document.repository';
import { toDocumentJson, toDocumentRowJson, type DocumentJson } from '../views/document.view';
import type { LeadDocumentJson } from '../views/lead-document.view';
import { DocumentAttachmentsReader } from './document-attachments';

/** A lead shows at most this many documents (the most recently attached). */
export const LEAD_DOCUMENTS_CAP = 50;

/**
 * Documents attached to leads (INTERFACES.md "Documents", attachments). The lead through
 * `LeadAccess` (404 `Lead not found.`), the document through the access policy (404 `Document not
 * found.`); attaching changes no visibility. The first receipt stays; each real change (an attach
 * that added a row, a detach that removed one) writes a `document` timeline event, in the same
 * transaction.
 */
@Injectable()
export class LeadDocumentsService {
  constructor(
    private readonly em: EntityManager,
    private readonly documents: DocumentRepository,
    private readonly leads: LeadAccess,
    private readonly attachments: DocumentAttachmentsReader,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly outbox: Outbox,
  ) {}

  async attach(actor: Principal, leadId: number, documentId: string): Promise<DocumentJson> {
    const document = await this.em.transactional(async (em) => {
      const { document, now } = await this.reachable(actor, leadId, documentId);
      const added = await preparedRows<{ one: number }>(em, {
        sql: `insert into document_lead_attachments (organization_id, document_id, lead_id, attached_by, attached_at)
              values (?, ?, ?, ?, ?) on conflict (document_id, lead_id) do nothing returning 1 as one`,
        params: [actor.organizationId, document.id, leadId, actor.userId, now],
      });
      if (added.length > 0) {
        await this.event(em, actor, leadId, document.id, 'attached', now);
        await this.shared(em, actor, leadId, document, 'document.shared', now);
      }
      return document;
    });
    return toDocumentJson(document, await this.attachments.of(actor, document.id), this.config.publicBaseUrl);
  }

  /** 204 also when it was not attached (then nothing is written). */
  async detach(actor: Principal, leadId: number, documentId: string): Promise<void> {
    await this.em.transactional(async (em) => {
      const { document, now } = await this.reachable(actor, leadId, documentId);
      const removed = await preparedRows<{ one: number }>(em, {
        sql: `delete from document_lead_attachments where document_id = ? and lead_id = ? returning 1 as one`,
        params: [document.id, leadId],
      });
      if (removed.length > 0) {
        await this.event(em, actor, leadId, document.id, 'detached', now);
        await this.shared(em, actor, leadId, document, 'document.unshared', now);
      }
    });
  }

  /** The 50 most recently attached documents of the lead the caller can see (ties by id). */
  async list(actor: Principal, leadId: number): Promise<ListResult<LeadDocumentJson>> {
    await this.leads.reachableLead(actor, leadId);
    const visible = visibleDocumentsSql('d', actor.organizationId, viewerOf(actor));
    const receipts = await preparedRows<{ documentId: string; attachedBy: string; attachedAt: Date }>(
      this.em,
      {
        sql: `select a.document_id as "documentId", a.attached_by as "attachedBy", a.attached_at as "attachedAt"
                from document_lead_attachments a join documents d on d.id = a.document_id
               where a.lead_id = ? and ${visible.sql}
               order by a.attached_at desc, a.document_id desc
               limit ?`,
        params: [leadId, ...visible.params, LEAD_DOCUMENTS_CAP + 1],
      },
    );
    const page = cappedResult(receipts, LEAD_DOCUMENTS_CAP);
    const ids = page.data.map((receipt) => receipt.documentId);
    const [documents, counts] = await Promise.all([
      ids.length ? this.documents.listInOrg(actor.organizationId, { id: { $in: ids } }) : [],
      this.attachments.counts(ids),
    ]);
    await this.expireShares(documents);
    const byId = new Map(documents.map((document) => [document.id, document]));
    const data = page.data.flatMap((receipt) => {
      const document = byId.get(receipt.documentId);
      if (!document) return [];
      return [
        {
          ...toDocumentRowJson(document, counts.get(document.id) ?? 0, this.config.publicBaseUrl),
          attachedBy: receipt.attachedBy,
          attachedAt: new Date(receipt.attachedAt).toISOString(),
        },
      ];
    });
    return { data, hasMore: page.hasMore };
  }

  /** The lead first (404 Lead), then the document the caller sees (404 Document). */
  private async reachable(
    actor: Principal,
    leadId: number,
    documentId: string,
  ): Promise<{ document: Document; now: Date }> {
    await this.leads.reachableLead(actor, leadId);
    const found = await this.documents.findInOrg(actor.organizationId, { id: documentId });
    const document = authorize('see', found, viewerOf(actor));
    const now = this.clock.now();
    if (document.expireShare(now)) await this.em.flush();
    return { document, now };
  }

  /** Shares past their expiry behave as revoked on every read (the sweep catches the rest). */
  private async expireShares(documents: Document[]): Promise<void> {
    const now = this.clock.now();
    const changed = documents.filter((document) => document.expireShare(now));
    if (changed.length > 0) await this.em.transactional((em) => em.flush());
  }

  /**
   * `document.shared` / `document.unshared` (issue 19): the document attached to or detached from
   * the lead. The document's version goes up by one (its view's attachments changed); the object
   * is the document as the caller's `GET /v1/documents/{id}` answers it.
   */
  private async shared(
    em: EntityManager,
    actor: Principal,
    leadId: number,
    document: Document,
    type: 'document.shared' | 'document.unshared',
    now: Date,
  ): Promise<void> {
    const [row] = await preparedRows<{ version: number }>(em, {
      sql: 'update documents set version = version + 1 where id = ? returning version',
      params: [document.id],
    });
    // deleted since it was read (its attachment's key is checked only at commit)
    if (!row) throw notFound('Document');
    const attachments = await this.attachments.of(actor, document.id);
    this.outbox.record(em, {
      organizationId: actor.organizationId,
      type,
      occurredAt: now,
      subject: { type: 'document', id: document.id, leadId },
      recordVersion: row.version,
      actor: eventActorOf(actor),
      data: { object: toDocumentJson(document, attachments, this.config.publicBaseUrl) },
    });
  }

  private event(
    em: EntityManager,
    actor: Principal,
    leadId: number,
    documentId: string,
    action: 'attached' | 'detached',
    at: Date,
  ): Promise<unknown> {
    return preparedRows(em, {
      sql: `insert into document_lead_events (id, organization_id, lead_id, document_id, action, actor_id, at)
            values (?, ?, ?, ?, ?, ?, ?)`,
      params: [uuidv7(), actor.organizationId, leadId, documentId, action, actor.userId, at],
    });
  }
}
