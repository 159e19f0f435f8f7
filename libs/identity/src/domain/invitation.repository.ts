import { LockMode } from '@mikro-orm/postgresql';
import { TenantRepository } from '@app/platform/core';
import type { Invitation } from './invitation.entity';

export class InvitationRepository extends TenantRepository<Invitation> {
  /**
   * Any agency's invitation by its token (the token names the agency), locked until the
   * transaction ends so two calls with one token cannot both get past it.
   */
  findByTokenHashForUpdate(tokenHash: string): Promise<Invitation | null> {
    return this.findOne({ tokenHash }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  }

  /**
   * Any agency's invitation by its token, unlocked: a first look, before the password is hashed;
   * kept out of the identity map, so the locked read after it loads the row afresh.
   */
  findByTokenHash(tokenHash: string): Promise<Invitation | null> {
    return this.findOne({ tokenHash }, { disableIdentityMap: true });
  }

  /** Across agencies, for the periodic clean-up: invitations expired or used before `cutoff`. */
  purgeEndedBefore(cutoff: Date): Promise<number> {
    return this.nativeDelete({ $or: [{ expiresAt: { $lt: cutoff } }, { acceptedAt: { $lt: cutoff } }] });
  }
}
