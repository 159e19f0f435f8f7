import { randomBytes } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { AppConfig, Clock, Principal, validationFailed } from '@app/platform';
import { authorize, viewerOf, type DocumentAction } from '../domain/document-access';
import { Document } from '../domain/document.entity';
import { DocumentRepository } from '../domain/document.repository';
import { toDocumentJson, type DocumentJson } from '../views/document.view';
import { DocumentsQueries } from './documents.queries';

/** A share token: 32 random bytes, base64url (43 characters). */
export const newShareToken = (): string => randomBytes(32).toString('base64url');

/**
 * The `/v1` writes of documents (INTERFACES.md "Documents"): create a Markdown document, change
 * its title or body, share and revoke its link. One transaction each; who may act is the policy's
 * (`authorize`), what changes is the aggregate's.
 */
@Injectable()
export class DocumentsService {
  constructor(
    private readonly em: EntityManager,
    private readonly documents: DocumentRepository,
    private readonly queries: DocumentsQueries,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** A Markdown document, private, in no folder; the answer is built inside the transaction. */
  create(actor: Principal, input: { title: string; body: string }): Promise<DocumentJson> {
    return this.em.transactional(async (em) => {
      const document = new Document({
        organizationId: actor.organizationId,
        createdBy: actor.userId,
        title: input.title,
        kind: 'markdown',
        body: input.body,
        now: this.clock.now(),
      });
      await em.persist(document).flush();
      return toDocumentJson(document, { count: 0, reachableLeadIds: [] }, this.config.publicBaseUrl);
    });
  }

  /** Title and/or body (DOCUMENT_KIND_READ_ONLY for a body of anything but Markdown). */
  async change(
    actor: Principal,
    documentId: string,
    change: { title?: string; body?: string },
  ): Promise<DocumentJson> {
    const document = await this.em.transactional(async (em) => {
      const found = await this.authorized(actor, 'edit', documentId);
      const now = this.clock.now();
      found.expireShare(now);
      if (change.title !== undefined || change.body !== undefined) found.edit(change, now);
      await em.flush();
      return found;
    });
    return this.queries.json(actor, document);
  }

  /**
   * Public by link. While live: the same token (a sent `expiresAt` replaces the old one); else a
   * new token, the replaced one answering 410 from then on.
   */
  async share(actor: Principal, documentId: string, expiresAt: Date | undefined): Promise<DocumentJson> {
    const now = this.clock.now();
    if (expiresAt !== undefined && expiresAt <= now) {
      throw validationFailed([{ path: 'expiresAt', message: 'expiresAt must be in the future' }]);
    }
    const document = await this.em.transactional(async (em) => {
      const found = await this.authorized(actor, 'share', documentId);
      const { replaced } = found.share(expiresAt, newShareToken, now);
      await em.flush();
      if (replaced) {
        await em.execute(
          `insert into document_gone_links (token, organization_id, gone_at) values (?, ?, ?)
           on conflict (token) do nothing`,
          [replaced, actor.organizationId, now],
        );
      }
      return found;
    });
    return this.queries.json(actor, document);
  }

  /** The link down, `organization` from then on; a document not shared: nothing changes. */
  async revoke(actor: Principal, documentId: string): Promise<void> {
    await this.em.transactional(async (em) => {
      const found = await this.authorized(actor, 'revoke', documentId);
      found.revokeShare(this.clock.now());
      await em.flush();
    });
  }

  private async authorized(actor: Principal, action: DocumentAction, documentId: string): Promise<Document> {
    return authorize(
      action,
      // locked for the transaction: two shares at once agree on one token
      await this.documents.findInOrg(
        actor.organizationId,
        { id: documentId },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      ),
      viewerOf(actor),
    );
  }
}
