import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { OrganizationsService } from '@app/identity';
import { Clock, DomainError, notFound, preparedRows } from '@app/platform';
import { DocumentRepository } from '../domain/document.repository';
import { renderDocumentPage } from './document-page.renderer';
import { RenderedPages } from './rendered-pages';

/** A token of 32 random bytes in base64url is 43 characters; anything else is no token of ours. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,128}$/;

const gone = () => new DomainError('GONE', 'This link is no longer available.');

/**
 * `GET /d/{token}` (INTERFACES.md "Documents", public page): the HTML of a live share. A share
 * whose `shareExpiresAt` has passed is expired here and now (`Document.expireShare`, flushed);
 * revoked, expired, replaced or deleted → 410 GONE; a token never issued → 404. A document of an
 * agency without an active plan (or disabled) is not served: 404, as an unknown link, since
 * documents are a paid feature and the link works again once the plan is back.
 */
@Injectable()
export class DocumentPageService {
  private readonly rendered = new RenderedPages();

  constructor(
    private readonly em: EntityManager,
    private readonly documents: DocumentRepository,
    private readonly organizations: OrganizationsService,
    private readonly clock: Clock,
  ) {}

  async page(token: string): Promise<string> {
    if (!TOKEN_SHAPE.test(token)) throw notFound('Page');
    const document = await this.documents.byShareToken(token);
    if (!document) {
      if (await this.isGoneLink(token)) throw gone();
      throw notFound('Page');
    }
    if (document.expireShare(this.clock.now())) {
      await this.em.transactional((em) => em.flush());
    }
    if (!document.shareLive) throw gone();
    const organization = await this.organizations.stateOf(document.organizationId);
    if (!organization?.planActive || organization.disabled) throw notFound('Page');
    const key = RenderedPages.key(document);
    const cached = this.rendered.get(key);
    if (cached !== undefined) return cached;
    const html = renderDocumentPage(document);
    this.rendered.set(key, html);
    return html;
  }

  private async isGoneLink(token: string): Promise<boolean> {
    const rows = await preparedRows<{ one: number }>(this.em, {
      sql: `select 1 as one from document_gone_links where token = ?`,
      params: [token],
    });
    return rows.length > 0;
  }
}
