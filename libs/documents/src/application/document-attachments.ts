import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { LeadAccess } from '@app/crm';
import { Principal, preparedRows } from '@app/platform';
import type { DocumentAttachments } from '../views/document.view';
import { attachmentCountsStatement } from './document-list.sql';

/**
 * A document's lead attachments as its view shows them: how many leads in all, and which of them
 * the caller reaches (through the CRM's `LeadAccess`, the only door to a lead).
 */
@Injectable()
export class DocumentAttachmentsReader {
  constructor(
    private readonly em: EntityManager,
    private readonly access: LeadAccess,
  ) {}

  /** For one document (the full view). */
  async of(actor: Principal, documentId: string): Promise<DocumentAttachments> {
    const reach = this.access.sql(actor, 'l');
    const [row] = await preparedRows<{ count: number; reachable: string[] | null }>(this.em, {
      sql: `select count(*)::int as count,
                   array_agg(a.lead_id order by a.attached_at desc, a.lead_id)
                     filter (where ${reach.sql}) as reachable
              from document_lead_attachments a join leads l on l.id = a.lead_id
             where a.document_id = ?`,
      params: [...reach.params, documentId],
    });
    return { count: row?.count ?? 0, reachableLeadIds: (row?.reachable ?? []).map(Number) };
  }

  /** Counts for a page of documents (the lists): one statement. */
  async counts(documentIds: string[]): Promise<Map<string, number>> {
    if (documentIds.length === 0) return new Map();
    const rows = await preparedRows<{ documentId: string; n: number }>(
      this.em,
      attachmentCountsStatement(documentIds),
    );
    return new Map(rows.map((row) => [row.documentId, row.n]));
  }
}
