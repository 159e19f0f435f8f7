import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { MINUTE, sha256 } from '@app/platform/core';

/** How long a portal answer is served again for free. */
export const PORTAL_CACHE_TTL = { search: 15 * MINUTE, listing: 60 * MINUTE } as const;
export type PortalCacheKind = keyof typeof PORTAL_CACHE_TTL;

/** Expired rows deleted by each write (lazy purge; `portal_cache_expires_idx` finds them). */
const PURGE_BATCH = 100;

/** JSON with object keys sorted at every depth, so equal requests give equal text. */
export const canonicalJson = (value: unknown): string => JSON.stringify(sortKeys(value));

const sortKeys = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object' && !(value instanceof Date))
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, sortKeys(v)]),
    );
  return value;
};

/** The cache key of a portal answer: kind, portal, country and the normalised request, hashed. */
export const portalCacheKey = (
  kind: PortalCacheKind,
  source: string,
  country: string,
  request: unknown,
): string => `${kind}:${source}:${country}:${sha256(canonicalJson(request))}`;

/**
 * `portal_cache`: portal answers shared by EVERY organization (a portal's listings are public, and
 * the request carries nothing of the caller), keyed by `portalCacheKey`; searches live 15 minutes,
 * listings 60. A hit costs no allowance. Expired rows are never served; they are overwritten by the
 * next miss of their key, and each write deletes up to 100 other expired rows (a lazy purge, so no
 * job is needed and the table stays about as big as one hour of distinct requests).
 * Reads and writes run outside the caller's transaction: a cached answer is a fact of the portal.
 */
@Injectable()
export class PortalCache {
  constructor(private readonly em: EntityManager) {}

  async get<T>(key: string, now: Date): Promise<T | null> {
    return (await this.getMany<T>([key], now)).get(key) ?? null;
  }

  /** The live entries among `keys`, in one statement. */
  async getMany<T>(keys: string[], now: Date): Promise<Map<string, T>> {
    if (keys.length === 0) return new Map();
    const rows = await this.em
      .getConnection()
      .execute<{ cache_key: string; body: T }[]>(
        'select cache_key, body from portal_cache where cache_key = any(?::text[]) and expires_at > ?',
        [`{${keys.map((key) => `"${key}"`).join(',')}}`, now],
      );
    return new Map(rows.map((row) => [row.cache_key, row.body]));
  }

  async put(key: string, kind: PortalCacheKind, body: unknown, now: Date): Promise<void> {
    const connection = this.em.getConnection();
    await connection.execute(
      `insert into portal_cache (cache_key, body, expires_at) values (?, ?::jsonb, ?)
       on conflict (cache_key) do update set body = excluded.body, expires_at = excluded.expires_at`,
      [key, JSON.stringify(body), new Date(now.getTime() + PORTAL_CACHE_TTL[kind])],
    );
    await connection.execute(
      `delete from portal_cache where cache_key in (
         select cache_key from portal_cache where expires_at <= ? order by expires_at limit ${PURGE_BATCH})`,
      [now],
    );
  }
}
