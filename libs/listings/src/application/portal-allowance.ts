import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import {
  allowanceDay,
  allowanceState,
  PORTAL_DAILY_ALLOWANCE,
  PortalAllowanceExhausted,
  type AllowanceState,
} from '../domain/portal-allowance';

/**
 * The `portal_allowance` row of an organization and UTC day. A reservation is ONE statement that
 * adds `n` only while the sum stays within 300 (the row lock of `on conflict do update` serializes
 * concurrent callers, so 20 parallel calls at 295 let exactly 5 through), so either all `n` calls
 * are reserved or none. It runs on its own connection, outside any transaction of the caller:
 * a reserved call is spent once made, whatever the caller's write does afterwards, and a call
 * whose upstream then fails stays counted (the portal may have served it).
 */
@Injectable()
export class PortalAllowance {
  constructor(private readonly em: EntityManager) {}

  /** How much of today's allowance the organization has used. */
  async current(organizationId: string, now: Date): Promise<AllowanceState> {
    const rows = await this.em
      .getConnection()
      .execute<{ used: number }[]>(
        'select used from portal_allowance where organization_id = ? and day = ?',
        [organizationId, allowanceDay(now)],
      );
    return allowanceState(rows[0]?.used ?? 0, now);
  }

  /**
   * Reserves `n` upstream calls of today's allowance, all or none; the state after. Throws
   * `PortalAllowanceExhausted` (nothing reserved) when they do not fit.
   */
  async reserve(organizationId: string, n: number, now: Date): Promise<AllowanceState> {
    if (n <= 0) return this.current(organizationId, now);
    const rows = await this.em.getConnection().execute<{ used: number }[]>(
      `insert into portal_allowance (organization_id, day, used)
         select ?, ?::date, ?::int where ?::int <= ?::int
       on conflict (organization_id, day) do update
         set used = portal_allowance.used + excluded.used
         where portal_allowance.used + excluded.used <= ?::int
       returning used`,
      [organizationId, allowanceDay(now), n, n, PORTAL_DAILY_ALLOWANCE, PORTAL_DAILY_ALLOWANCE],
    );
    if (rows.length === 0) {
      const { used } = await this.current(organizationId, now);
      throw new PortalAllowanceExhausted(used, n, now);
    }
    return allowanceState(rows[0].used, now);
  }
}
