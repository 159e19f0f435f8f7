import { Injectable } from '@nestjs/common';
import { Clock, SessionAuthenticator, SessionPrincipal, sha256, unauthenticated } from '@app/platform';
import { SessionRepository } from '../domain/session.repository';

/** One indexed query per call: a live, unrevoked session of a person still in the agency. */
@Injectable()
export class DbSessionAuthenticator extends SessionAuthenticator {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly clock: Clock,
  ) {
    super();
  }

  async authenticate(token: string): Promise<SessionPrincipal> {
    const row = await this.sessions.liveByTokenHash(sha256(token), this.clock.now());
    if (!row) throw unauthenticated('The session has ended; sign in again.');
    return {
      kind: 'session',
      sessionId: row.id,
      userId: row.user_id,
      organizationId: row.organization_id,
      role: row.role,
      planActive: row.plan_active,
      expiresAt: new Date(row.expires_at),
    };
  }
}
