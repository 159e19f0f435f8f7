import { EntityManager, LockMode } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Clock, conflict, notFound, Principal, randomToken, sha256, type Role } from '@app/platform';
import { Invitation } from '../domain/invitation.entity';
import { Membership } from '../domain/membership.entity';
import { Organization } from '../domain/organization.entity';
import { Session } from '../domain/session.entity';
import { normalizeEmail, User } from '../domain/user.entity';
import { cappedResult, ListResult } from '@app/platform';
import { ApiKeyCache } from './api-key-cache';
import { MemberView, memberView } from './views';

export const MEMBERS_CAP = 100;

/** The people of an agency: who is in it, with which role, and who is invited. */
@Injectable()
export class MembersService {
  constructor(
    private readonly em: EntityManager,
    private readonly clock: Clock,
    private readonly keyCache: ApiKeyCache,
  ) {}

  /** Up to 100 members, by name (spec: members up to 100 with `hasMore`). */
  async list(actor: Principal): Promise<ListResult<MemberView>> {
    const memberships = await this.em.find(
      Membership,
      { organizationId: actor.organizationId },
      { limit: MEMBERS_CAP + 1, orderBy: { createdAt: 'asc' } },
    );
    const users = await this.em.find(User, { id: { $in: memberships.map((m) => m.userId) } });
    const byId = new Map(users.map((user) => [user.id, user]));
    const rows = memberships
      .map((membership) => memberView(byId.get(membership.userId)!, membership))
      .sort((a, b) => `${a.firstName} ${a.lastName}`.localeCompare(`${b.firstName} ${b.lastName}`));
    return cappedResult(rows, MEMBERS_CAP);
  }

  /** Ids of the agency's members among `userIds` (for teams, assignees). */
  async existingMemberIds(organizationId: string, userIds: string[]): Promise<Set<string>> {
    if (userIds.length === 0) return new Set();
    const memberships = await this.em.find(
      Membership,
      { organizationId, userId: { $in: userIds } },
      { fields: ['userId'] },
    );
    return new Set(memberships.map((m) => m.userId));
  }

  /** A person who left an agency can be invited again; someone in an agency cannot. */
  async invite(actor: Principal, email: string, role: Role) {
    const now = this.clock.now();
    const existing = await this.em.findOne(User, { email: normalizeEmail(email) });
    if (existing && (await this.em.count(Membership, { userId: existing.id })) > 0) {
      throw conflict('This email is already registered.');
    }
    const token = randomToken('svc_inv_');
    const invitation = new Invitation(
      {
        organizationId: actor.organizationId,
        email,
        role,
        tokenHash: sha256(token),
        invitedById: actor.userId,
      },
      now,
    );
    await this.em.persist(invitation).flush();
    return {
      id: invitation.id,
      email: invitation.email,
      role: invitation.role,
      token,
      expiresAt: invitation.expiresAt.toISOString(),
    };
  }

  /** Applies to the person's sessions and keys on their next call (INTERFACES.md). */
  async changeRole(actor: Principal, userId: string, role: Role): Promise<MemberView> {
    const membership = await this.em.transactional(async (em) => {
      const found = await this.findMembershipLocked(em, actor, userId);
      if (found.role === 'admin' && role !== 'admin') await this.refuseLastAdmin(em, actor.organizationId);
      found.changeRole(role, this.clock.now());
      return found;
    });
    this.keyCache.invalidateOwner(userId);
    return memberView(await this.em.findOneOrFail(User, userId), membership);
  }

  /** The person leaves: their sessions end, they leave every team, their API keys stop (rule 6). */
  async remove(actor: Principal, userId: string): Promise<void> {
    const now = this.clock.now();
    await this.em.transactional(async (em) => {
      const membership = await this.findMembershipLocked(em, actor, userId);
      if (membership.role === 'admin') await this.refuseLastAdmin(em, actor.organizationId);
      em.remove(membership);
      await em.nativeUpdate(Session, { userId, revokedAt: null }, { revokedAt: now });
      await em.execute(
        `update teams set member_ids = array_remove(member_ids, ?), updated_at = ? where organization_id = ? and ? = any(member_ids)`,
        [userId, now, actor.organizationId, userId],
      );
      // their keys stay dead even if they are invited back later
      await em.execute(
        `update api_keys set owner_left_at = ?, updated_at = ? where organization_id = ? and created_by_id = ? and owner_left_at is null`,
        [now, now, actor.organizationId, userId],
      );
    });
    this.keyCache.invalidateOwner(userId); // spec rule 6: their keys stop
  }

  /**
   * Role changes and removals of one agency run one at a time (the organization row is locked), so
   * two admins demoting or removing each other at once cannot leave the agency without an admin.
   */
  private async findMembershipLocked(
    em: EntityManager,
    actor: Principal,
    userId: string,
  ): Promise<Membership> {
    await em.findOneOrFail(Organization, actor.organizationId, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const membership = await em.findOne(Membership, { organizationId: actor.organizationId, userId });
    if (!membership) throw notFound('Member');
    return membership;
  }

  /** An agency always keeps one admin. */
  private async refuseLastAdmin(em: EntityManager, organizationId: string): Promise<void> {
    if ((await em.count(Membership, { organizationId, role: 'admin' })) <= 1) {
      throw conflict('An organization needs at least one admin.');
    }
  }
}
