import { TenantRepository, type Role } from '@app/platform/core';
import type { Session } from './session.entity';

/** A live session as the session door reads it, with its person's current role. */
export interface LiveSessionRow {
  id: string;
  user_id: string;
  organization_id: string;
  expires_at: Date;
  role: Role;
  plan_active: boolean;
}

export class SessionRepository extends TenantRepository<Session> {
  /** The session door's lookup, any agency: the token names it. One indexed query. */
  async liveByTokenHash(tokenHash: string, now: Date): Promise<LiveSessionRow | null> {
    const [row] = await this.getEntityManager()
      .getConnection()
      .execute<LiveSessionRow[]>(
        `select s.id, s.user_id, s.organization_id, s.expires_at, m.role, o.plan_active
           from sessions s
           join memberships m on m.user_id = s.user_id and m.organization_id = s.organization_id
           join organizations o on o.id = s.organization_id
          where s.token_hash = ? and s.revoked_at is null and s.expires_at > ?`,
        [tokenHash, now],
      );
    return row ?? null;
  }

  /** The caller's own session. */
  getInOrg(organizationId: string, sessionId: string): Promise<Session> {
    return this.findOneOrFail(this.scoped(organizationId, { id: sessionId }));
  }

  /** Ends every open session of the person, in whatever agency it was opened. */
  revokeAllOfPerson(userId: string, now: Date): Promise<number> {
    return this.nativeUpdate({ userId, revokedAt: null }, { revokedAt: now });
  }

  /** Across agencies, for the periodic clean-up: sessions that ended before `cutoff`. */
  purgeEndedBefore(cutoff: Date): Promise<number> {
    return this.nativeDelete({ $or: [{ expiresAt: { $lt: cutoff } }, { revokedAt: { $lt: cutoff } }] });
  }
}
