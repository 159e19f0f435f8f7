import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import {
  cappedResult,
  Clock,
  conflict,
  ListResult,
  notFound,
  Principal,
  randomToken,
  sha256,
  type Role,
} from '@app/platform';
import { AgentRepository } from '../domain/agent.repository';
import { Invitation } from '../domain/invitation.entity';
import { Membership } from '../domain/membership.entity';
import { MembershipRepository } from '../domain/membership.repository';
import { OrganizationRepository } from '../domain/organization.repository';
import { SessionRepository } from '../domain/session.repository';
import { UserRepository } from '../domain/user.repository';
import { invitationView, InvitationJson } from '../views/invitation.view';
import { memberView, MemberJson } from '../views/member.view';
import { ApiKeyMaintenanceService } from './api-key-maintenance.service';
import { KeyDoor } from './key-door';
import { TeamsService } from './teams.service';

export const MEMBERS_CAP = 100;

/** The people of an agency: who is in it, with which role, and who is invited. */
@Injectable()
export class MembersService {
  constructor(
    private readonly em: EntityManager,
    private readonly memberships: MembershipRepository,
    private readonly users: UserRepository,
    private readonly organizations: OrganizationRepository,
    private readonly sessions: SessionRepository,
    private readonly teams: TeamsService,
    private readonly keyMaintenance: ApiKeyMaintenanceService,
    private readonly clock: Clock,
    private readonly door: KeyDoor,
    private readonly agents: AgentRepository,
  ) {}

  /** Up to 100 members, by name (spec: members up to 100 with `hasMore`). */
  async list(actor: Principal): Promise<ListResult<MemberJson>> {
    const memberships = await this.memberships.listInOrg(
      actor.organizationId,
      {},
      { limit: MEMBERS_CAP + 1, orderBy: { createdAt: 'asc' } },
    );
    const users = await this.users.findByIds(memberships.map((m) => m.userId));
    const byId = new Map(users.map((user) => [user.id, user]));
    const rows = memberships
      .map((membership) => memberView(byId.get(membership.userId)!, membership))
      .sort((a, b) => `${a.firstName} ${a.lastName}`.localeCompare(`${b.firstName} ${b.lastName}`));
    return cappedResult(rows, MEMBERS_CAP);
  }

  /** Ids of the agency's members among `userIds` (for teams, assignees). */
  existingMemberIds(organizationId: string, userIds: string[]): Promise<Set<string>> {
    return this.memberships.memberIdsAmong(organizationId, userIds);
  }

  /** A person who left an agency can be invited again; someone in an agency cannot. */
  async invite(actor: Principal, email: string, role: Role): Promise<InvitationJson> {
    const now = this.clock.now();
    const existing = await this.users.findByEmail(email);
    if (existing && (await this.memberships.isInAnyAgency(existing.id))) {
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
    return invitationView(invitation, token);
  }

  /** Applies to the person's sessions and keys of every kind on their next call (INTERFACES.md). */
  async changeRole(actor: Principal, userId: string, role: Role): Promise<MemberJson> {
    const membership = await this.em.transactional(async () => {
      const found = await this.findMembershipLocked(actor, userId);
      if (found.role === 'admin' && role !== 'admin') await this.refuseLastAdmin(actor.organizationId);
      found.changeRole(role, this.clock.now());
      return found;
    });
    await this.door.ownerChanged(userId);
    return memberView(await this.users.getById(userId), membership);
  }

  /**
   * The person leaves: their sessions end, they leave every team, their API keys stop (rule 6),
   * their agent row goes inactive (kept: listings may name it).
   */
  async remove(actor: Principal, userId: string): Promise<void> {
    const now = this.clock.now();
    await this.em.transactional(async (em) => {
      const membership = await this.findMembershipLocked(actor, userId);
      if (membership.role === 'admin') await this.refuseLastAdmin(actor.organizationId);
      em.remove(membership);
      await this.sessions.revokeAllOfPerson(userId, now);
      await this.teams.memberLeft(actor.organizationId, userId, now);
      await this.keyMaintenance.ownerLeft(actor.organizationId, userId, now);
      (await this.agents.findOfMember(actor.organizationId, userId))?.memberLeft(now);
    });
    await this.door.ownerChanged(userId); // spec rule 6: their keys of every kind stop
  }

  /**
   * Role changes and removals of one agency run one at a time (the organization row is locked), so
   * two admins demoting or removing each other at once cannot leave the agency without an admin.
   * Called inside the use-case's transaction.
   */
  private async findMembershipLocked(actor: Principal, userId: string): Promise<Membership> {
    await this.organizations.lockById(actor.organizationId);
    const membership = await this.memberships.findInOrg(actor.organizationId, { userId });
    if (!membership) throw notFound('Member');
    return membership;
  }

  /** An agency always keeps one admin. */
  private async refuseLastAdmin(organizationId: string): Promise<void> {
    if ((await this.memberships.countAdminsInOrg(organizationId)) <= 1) {
      throw conflict('An organization needs at least one admin.');
    }
  }
}
