import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { AgentRoster, OrganizationsService } from '@app/identity';
import { Clock, DomainError, notFound, preparedRows } from '@app/platform';
import type { BrochureListing, BrochureListingEdits } from '../domain/brochure-listing.entity';
import { BrochureRepository } from '../domain/brochure.repository';
import { BrochureViews } from './brochure-views';
import { renderBrochurePage, type PageAgent } from './brochure-page.renderer';

/** A listing copy as the page reads it: what the page renders and what the brochure's view shows. */
type PageCopy = Pick<BrochureListing, 'id' | 'source' | 'sourceId' | 'position' | 'snapshot' | 'edits'>;

/** A slug is the slugified title (≤ 40) + `-` + 10 base32 characters; anything else is no slug of ours. */
const SLUG_SHAPE = /^[A-Za-z0-9-]{1,100}$/;

/** User-Agents that are not people reading the page: their visits are not counted. */
const NOT_A_PERSON = /bot|crawler|spider|preview/i;

const gone = () => new DomainError('GONE', 'This brochure is no longer available.');

/** Whether a request counts as a view: a GET (never HEAD) from a User-Agent that is no bot, crawler, spider or preview. */
export const countsAsView = (method: string, userAgent: string | undefined): boolean =>
  method === 'GET' && !NOT_A_PERSON.test(userAgent ?? '');

/**
 * `GET /b/{slug}` (INTERFACES.md "Brochures and network", public page): the HTML of an active
 * brochure. Revoked, or expired (`expiresAt` passed, whether or not the expiry job has run) → 410
 * GONE; a slug never issued, or a deleted brochure → 404; a disabled agency's brochure → 404.
 * Brochures need no plan. A counted view is gathered by `BrochureViews` and written within a
 * second (no row lock per view).
 */
@Injectable()
export class BrochurePageService {
  constructor(
    private readonly em: EntityManager,
    private readonly brochures: BrochureRepository,
    private readonly roster: AgentRoster,
    private readonly organizations: OrganizationsService,
    private readonly clock: Clock,
    private readonly views: BrochureViews,
  ) {}

  async page(slug: string, visit: { counted: boolean }): Promise<string> {
    if (!SLUG_SHAPE.test(slug)) throw notFound('Page');
    const brochure = await this.brochures.bySlug(slug);
    if (!brochure) throw notFound('Page');
    const now = this.clock.now();
    if (brochure.statusAt(now) !== 'active') throw gone();
    const organization = await this.organizations.stateOf(brochure.organizationId);
    if (!organization || organization.disabled) throw notFound('Page');

    const [listings, agent] = await Promise.all([
      this.listingsOf(brochure.organizationId, brochure.id),
      this.roster.ofMember(brochure.organizationId, brochure.agentUserId),
    ]);
    const html = renderBrochurePage(brochure, listings, agent ? agentCard(agent) : null);
    if (visit.counted) this.views.record(brochure, listings as BrochureListing[], now);
    return html;
  }

  /** The copies in position order (the brochure's agency, its index `brochure_listings_brochure_idx`). */
  private async listingsOf(organizationId: string, brochureId: string): Promise<PageCopy[]> {
    const rows = await preparedRows<{
      id: string;
      source: string;
      source_id: string;
      position: number;
      snapshot: Record<string, unknown>;
      edits: BrochureListingEdits | null;
    }>(this.em, {
      sql: `select id, source, source_id, position, snapshot, edits from brochure_listings
               where brochure_id = ? and organization_id = ?
               order by position, id`,
      params: [brochureId, organizationId],
    });
    return rows.map((row) => ({
      id: row.id,
      source: row.source,
      sourceId: row.source_id,
      position: row.position,
      snapshot: row.snapshot ?? {},
      edits: row.edits ?? {},
    }));
  }
}

const agentCard = (agent: PageAgent): PageAgent => ({
  firstName: agent.firstName,
  lastName: agent.lastName,
  title: agent.title,
  displayEmail: agent.displayEmail,
  phoneNumber: agent.phoneNumber,
  avatarUrl: agent.avatarUrl,
});
