import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import {
  Clock,
  SessionAuthenticator,
  SessionPrincipal,
  sha256,
  unauthenticated,
  type Role,
} from '@app/platform';

interface SessionRow {
  id: string;
  user_id: string;
  organization_id: string;
  expires_at: Date;
  role: Role;
  plan_active: boolean;
}

/** One indexed query per call: a live, unrevoked session of a person still in the agency. */
@Injectable()
export class DbSessionAuthenticator extends SessionAuthenticator {
  constructor(
    private readonly em: EntityManager,
    private readonly clock: Clock,
  ) {
    super();
  }

  async authenticate(token: string): Promise<SessionPrincipal> {
    const [row] = await this.em.getConnection().execute<SessionRow[]>(
      `select s.id, s.user_id, s.organization_id, s.expires_at, m.role, o.plan_active
         from sessions s
         join memberships m on m.user_id = s.user_id and m.organization_id = s.organization_id
         join organizations o on o.id = s.organization_id
        where s.token_hash = ? and s.revoked_at is null and s.expires_at > ?`,
      [sha256(token), this.clock.now()],
    );
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
