import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { AgentRoster, OrganizationsService } from '@app/identity';
import { AppConfig, Clock, DomainError, notFound, Outbox, preparedRows, SYSTEM_ACTOR } from '@app/platform';
import type { BrochureListing, BrochureListingEdits } from '../domain/brochure-listing.entity';
import type { Brochure } from '../domain/brochure.entity';
import { BrochureRepository } from '../domain/brochure.repository';
import { toBrochureJson } from '../views/brochure.view';
import { brochureEvent } from './brochure-events';
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
 * Brochures need no plan. A counted view adds one to `view_count` and sets `last_viewed_at` in ONE
 * UPDATE (the row lock serialises parallel views: none is lost), only while the brochure is active.
 */
@Injectable()
export class BrochurePageService {
  constructor(
    private readonly em: EntityManager,
    private readonly brochures: BrochureRepository,
    private readonly roster: AgentRoster,
    private readonly organizations: OrganizationsService,
    private readonly clock: Clock,
    private readonly outbox: Outbox,
    private readonly config: AppConfig,
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
    if (visit.counted) await this.countView(brochure, listings, now);
    return html;
  }

  /**
   * One statement: the count goes up by one while the brochure is still active (its version with
   * it); the same transaction records `brochure.viewed` (no principal: the system is the actor),
   * its object built from what the page read, with the counted values.
   */
  private async countView(brochure: Brochure, listings: PageCopy[], now: Date): Promise<void> {
    await this.em.transactional(async (em) => {
      // a write: run once (preparedRows retries reads on a broken connection)
      const [row] = await em.execute<
        { view_count: number; last_viewed_at: Date | string; version: number }[]
      >(
        `update brochures
            set view_count = view_count + 1,
                last_viewed_at = greatest(coalesce(last_viewed_at, ?::timestamptz), ?::timestamptz),
                version = version + 1
          where id = ? and status = 'active' and expires_at > ?
          returning view_count, last_viewed_at, version`,
        [now, now, brochure.id, now],
      );
      if (!row) return;
      const before = toBrochureJson(brochure, listings as BrochureListing[], now, this.config.publicBaseUrl);
      const object = {
        ...before,
        viewCount: Number(row.view_count),
        lastViewedAt: new Date(row.last_viewed_at).toISOString(),
      };
      this.outbox.record(
        em,
        brochureEvent({
          brochure,
          type: 'brochure.viewed',
          object,
          before,
          version: row.version,
          actor: SYSTEM_ACTOR,
          now,
        }),
      );
    });
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
