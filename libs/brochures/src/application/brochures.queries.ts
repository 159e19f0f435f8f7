import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { AppConfig, Clock, DomainError, isAdmin, preparedRows, Principal } from '@app/platform';
import { Brochure } from '../domain/brochure.entity';
import {
  toBrochureJson,
  toBrochureRowJson,
  type BrochurePageView,
  type BrochureView,
} from '../views/brochure.view';
import { BrochureAccess } from './brochure-access';

export const BROCHURE_LIST_STATUSES = ['all', 'active', 'expired', 'revoked'] as const;
export type BrochureListStatus = (typeof BROCHURE_LIST_STATUSES)[number];

export interface BrochureListQuery {
  page: number;
  limit: number;
  status: BrochureListStatus;
  q?: string;
  createdById?: string;
}

interface BrochureRowRecord {
  total: string;
  id: string | null;
  slug: string;
  title: string;
  recipient_name: string | null;
  status: 'active' | 'revoked';
  creator_user_id: string;
  show_locations: boolean;
  expires_at: string | Date;
  view_count: number;
  last_viewed_at: string | Date | null;
  created_at: string | Date;
  listing_count: number;
}

/** `%`, `_` and `\` taken literally in a LIKE pattern. */
const likePrefix = (q: string): string => `${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Reads of brochures: the list (page ids first, exact total, one statement) and one brochure. */
@Injectable()
export class BrochuresQueries {
  constructor(
    private readonly em: EntityManager,
    private readonly access: BrochureAccess,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /**
   * Newest first. A member sees their own brochures only (and may not filter by creator: 403
   * ORG_ADMIN_REQUIRED); `q` is a case-insensitive prefix of the title, the recipient's name or the slug.
   */
  async list(actor: Principal, query: BrochureListQuery): Promise<BrochurePageView> {
    if (query.createdById !== undefined && !isAdmin(actor))
      throw new DomainError('ORG_ADMIN_REQUIRED', 'Only an organization admin can filter by creator.');
    const now = this.clock.now();
    const where = ['b.organization_id = ?'];
    const params: unknown[] = [actor.organizationId];
    const creator = isAdmin(actor) ? query.createdById : actor.userId;
    if (creator !== undefined) {
      where.push('b.creator_user_id = ?');
      params.push(creator.toLowerCase());
    }
    if (query.status === 'revoked') where.push(`b.status = 'revoked'`);
    else if (query.status === 'active') {
      where.push(`b.status = 'active' and b.expires_at > ?`);
      params.push(now);
    } else if (query.status === 'expired') {
      where.push(`b.status = 'active' and b.expires_at <= ?`);
      params.push(now);
    }
    if (query.q) {
      const pattern = likePrefix(query.q);
      where.push(
        `(lower(b.title) like ? escape '\\' or lower(b.recipient_name) like ? escape '\\' or b.slug like ? escape '\\')`,
      );
      params.push(pattern, pattern, pattern);
    }
    const offset = (query.page - 1) * query.limit;
    const rows = await preparedRows<BrochureRowRecord>(
      this.em,
      {
        sql: `with filtered as (select b.id, b.created_at from brochures b where ${where.join(' and ')}),
                   page as (select id, created_at from filtered order by created_at desc, id desc limit ? offset ?)
              select t.total, b.id, b.slug, b.title, b.recipient_name, b.status, b.creator_user_id,
                     b.show_locations, b.expires_at, b.view_count, b.last_viewed_at, b.created_at,
                     (select count(*)::int from brochure_listings bl where bl.brochure_id = b.id) as listing_count
                from (select count(*) as total from filtered) t
                left join page p on true
                left join brochures b on b.id = p.id
               order by p.created_at desc nulls last, p.id desc`,
        params: [...params, query.limit, offset],
      },
      { prepare: false },
    );
    const total = Number(rows[0]?.total ?? 0);
    const data = rows
      .filter((row) => row.id !== null)
      .map((row) => toBrochureRowJson(rowBrochure(row), row.listing_count, now, this.config.publicBaseUrl));
    return { data, hasMore: offset + data.length < total, total };
  }

  async get(actor: Principal, brochureId: string): Promise<BrochureView> {
    const brochure = await this.access.reachable(actor, brochureId);
    const listings = await this.access.listingsOf(brochure);
    return toBrochureJson(brochure, listings, this.clock.now(), this.config.publicBaseUrl);
  }
}

const date = (value: string | Date): Date => new Date(value);

/** A list row as a (partial) Brochure so the one view renders it; never flushed. */
function rowBrochure(row: BrochureRowRecord): Brochure {
  return Object.assign(Object.create(Brochure.prototype) as Brochure, {
    id: row.id,
    slug: row.slug,
    title: row.title,
    recipientName: row.recipient_name,
    status: row.status,
    creatorUserId: row.creator_user_id,
    showLocations: row.show_locations,
    expiresAt: date(row.expires_at),
    viewCount: Number(row.view_count),
    lastViewedAt: row.last_viewed_at === null ? null : date(row.last_viewed_at),
    createdAt: date(row.created_at),
  });
}
