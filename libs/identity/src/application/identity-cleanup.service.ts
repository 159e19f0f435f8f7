import { MikroORM, CreateRequestContext } from '@mikro-orm/core';
import { Injectable } from '@nestjs/common';
import { DAY, HOUR, JobName, Periodic } from '@app/platform';
import { Invitation } from '../domain/invitation.entity';
import { Session } from '../domain/session.entity';

/** Periodic clean-up: sessions and invitations past use. Safe to run twice. */
@Injectable()
export class IdentityCleanupService {
  constructor(private readonly orm: MikroORM) {}

  @Periodic(JobName.PurgeExpiredIdentity, HOUR)
  @CreateRequestContext()
  async purgeExpired(now: Date): Promise<{ sessions: number; invitations: number }> {
    const em = this.orm.em;
    // a day's margin keeps recently ended sessions visible to support
    const cutoff = new Date(now.getTime() - DAY);
    const sessions = await em.nativeDelete(Session, {
      $or: [{ expiresAt: { $lt: cutoff } }, { revokedAt: { $lt: cutoff } }],
    });
    const invitations = await em.nativeDelete(Invitation, {
      $or: [{ expiresAt: { $lt: cutoff } }, { acceptedAt: { $lt: cutoff } }],
    });
    return { sessions, invitations };
  }
}
