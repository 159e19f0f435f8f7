import { CreateRequestContext, MikroORM } from '@mikro-orm/core';
import { Injectable } from '@nestjs/common';
import { DAY, HOUR, JobName, Periodic } from '@app/platform';
import { InvitationRepository } from '../domain/invitation.repository';
import { SessionRepository } from '../domain/session.repository';

/** Periodic clean-up: sessions and invitations past use. Safe to run twice. */
@Injectable()
export class IdentityCleanupService {
  constructor(
    // CreateRequestContext finds the ORM here
    private readonly orm: MikroORM,
    private readonly sessions: SessionRepository,
    private readonly invitations: InvitationRepository,
  ) {}

  @Periodic(JobName.PurgeExpiredIdentity, HOUR)
  @CreateRequestContext()
  async purgeExpired(now: Date): Promise<{ sessions: number; invitations: number }> {
    // a day's margin keeps recently ended sessions visible to support
    const cutoff = new Date(now.getTime() - DAY);
    const sessions = await this.sessions.purgeEndedBefore(cutoff);
    const invitations = await this.invitations.purgeEndedBefore(cutoff);
    return { sessions, invitations };
  }
}
