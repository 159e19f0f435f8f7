import { EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { Injectable, Logger } from '@nestjs/common';
import {
  Clock,
  type ClientOrigin,
  conflict,
  randomToken,
  SESSION_TOKEN_PREFIX,
  SessionPrincipal,
  sha256,
  unauthenticated,
  type Role,
} from '@app/platform';
import { Agent } from '../domain/agent.entity';
import { AgentRepository } from '../domain/agent.repository';
import { InvitationRepository } from '../domain/invitation.repository';
import { Membership } from '../domain/membership.entity';
import { MembershipRepository } from '../domain/membership.repository';
import { Organization } from '../domain/organization.entity';
import { OrganizationRepository } from '../domain/organization.repository';
import { Session } from '../domain/session.entity';
import { SessionRepository } from '../domain/session.repository';
import { User } from '../domain/user.entity';
import { UserRepository } from '../domain/user.repository';
import { sessionView, SessionJson, signedInView, SignedInJson } from '../views/session.view';
import { refuseWeakPassword } from '../domain/password-strength';
import { PasswordHasher } from './password-hasher';
import { SignInLimits } from './sign-in-limits';

export interface SignUp {
  organizationName: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

export interface AcceptInvitation {
  token: string;
  password: string;
  firstName: string;
  lastName: string;
}

const emailTaken = () => conflict('This email is already registered.');
const unknownInvitation = () => unauthenticated('Unknown invitation.');

/** Sign-up, sign-in, sign-out and invitations accepted: everything that opens a session. */
@Injectable()
export class AccountsService {
  private readonly log = new Logger('Auth');

  constructor(
    private readonly em: EntityManager,
    private readonly users: UserRepository,
    private readonly memberships: MembershipRepository,
    private readonly organizations: OrganizationRepository,
    private readonly sessions: SessionRepository,
    private readonly invitations: InvitationRepository,
    private readonly passwords: PasswordHasher,
    private readonly clock: Clock,
    private readonly agents: AgentRepository,
    private readonly signInLimits: SignInLimits,
  ) {}

  /** A new agency with its first admin; its plan starts active. */
  async signUp(input: SignUp): Promise<SignedInJson> {
    const now = this.clock.now();
    refuseWeakPassword(input.password, input);
    await this.refuseTakenEmail(input.email);
    const organization = new Organization(input.organizationName, now);
    const user = new User({ ...input, passwordHash: await this.passwords.hash(input.password) }, now);
    const membership = new Membership(organization.id, user.id, 'admin', now);
    // the agent roster row comes with the membership (INTERFACES.md "Agent roster")
    this.em.persist([organization, user, membership, Agent.ofMember(organization.id, user, now)]);
    return this.openSession(user, organization, membership.role, now);
  }

  /**
   * The same 401, in the same time, for an unknown email and a wrong password; failed attempts are
   * limited (`SignInLimits`: 429 before the password is read). Each outcome is one log line with
   * the request id, the person's id when the email is theirs and the client address; never the
   * email or the password.
   */
  async signIn(email: string, password: string, origin: ClientOrigin): Promise<SignedInJson> {
    const line = { requestId: origin.requestId, clientAddress: origin.address };
    const attempt = await this.signInLimits.begin(email, origin.address);
    if ('refusedBy' in attempt) {
      this.log.warn({ ...line, limit: attempt.refusedBy }, 'sign-in refused: too many failures');
      throw attempt.error;
    }
    const user = await this.users.findByEmail(email, { withPassword: true });
    const valid = user
      ? await this.passwords.verify(user.passwordHash, password)
      : await this.passwords.verifyNobody(password);
    const membership = user && valid ? await this.memberships.findAnyAgencyOf(user.id) : null;
    if (!user || !membership) {
      await attempt.failed();
      this.log.warn({ ...line, userId: user?.id ?? null }, 'sign-in failed');
      throw unauthenticated('Wrong email or password.');
    }
    await attempt.succeeded();
    const organization = await this.organizations.getById(membership.organizationId);
    const signedIn = await this.openSession(user, organization, membership.role, this.clock.now());
    this.log.log({ ...line, userId: user.id, organizationId: organization.id }, 'sign-in succeeded');
    return signedIn;
  }

  async signOut(actor: SessionPrincipal): Promise<void> {
    const session = await this.sessions.getInOrg(actor.organizationId, actor.sessionId);
    session.revoke(this.clock.now());
    await this.em.flush();
  }

  async session(actor: SessionPrincipal): Promise<SessionJson> {
    const [user, organization] = await Promise.all([
      this.users.getById(actor.userId),
      this.organizations.getById(actor.organizationId),
    ]);
    return sessionView(actor, user, organization);
  }

  /**
   * A new person joins with the invited role; a used or expired token answers 410, a weak password
   * 400 (read before the password is hashed). The invitation row stays locked until the person
   * exists, so two calls with one token cannot both get past it.
   */
  async acceptInvitation(input: AcceptInvitation): Promise<SignedInJson> {
    const open = await this.invitations.findByTokenHash(sha256(input.token));
    if (!open) throw unknownInvitation();
    open.refuseIfEnded(this.clock.now());
    refuseWeakPassword(input.password, { ...input, email: open.email });
    const passwordHash = await this.passwords.hash(input.password);
    return this.em.transactional(async (em) => {
      const now = this.clock.now();
      const invitation = await this.invitations.findByTokenHashForUpdate(sha256(input.token));
      if (!invitation) throw unknownInvitation();
      invitation.accept(now);
      const organization = await this.organizations.getById(invitation.organizationId);
      const user = await this.joiningPerson(
        invitation.email,
        { passwordHash, firstName: input.firstName, lastName: input.lastName },
        now,
      );
      const membership = new Membership(organization.id, user.id, invitation.role, now);
      em.persist([user, membership]);
      await this.joinRoster(em, organization.id, user, now);
      return this.openSession(user, organization, membership.role, now, em);
    });
  }

  /**
   * A new person, or one who left an agency coming back (same person id, new password and
   * name). Someone still in an agency answers 409.
   */
  private async joiningPerson(
    email: string,
    props: { passwordHash: string; firstName: string; lastName: string },
    now: Date,
  ): Promise<User> {
    const existing = await this.users.findByEmail(email, { withPassword: true });
    if (!existing) return new User({ email, ...props }, now);
    if (await this.memberships.isInAnyAgency(existing.id)) throw emailTaken();
    existing.rejoin(props, now);
    return existing;
  }

  /**
   * The person's agent row in the agency: made, or (someone back) active again. A linked row's
   * names are the account's, so every row of a person who comes back takes the new names.
   */
  private async joinRoster(em: EntityManager, organizationId: string, user: User, now: Date): Promise<void> {
    const rows = await this.agents.findAllOfPerson(user.id);
    for (const row of rows) row.accountNamed(user, now);
    const own = rows.find((row) => row.organizationId === organizationId);
    if (own) own.memberBack(user, now);
    else em.persist(Agent.ofMember(organizationId, user, now));
  }

  private async refuseTakenEmail(email: string): Promise<void> {
    if (await this.users.isEmailTaken(email)) throw emailTaken();
  }

  /** Flushes everything persisted so far with the new session: one transaction per use-case. */
  private async openSession(
    user: User,
    organization: Organization,
    role: Role,
    now: Date,
    em: EntityManager = this.em,
  ): Promise<SignedInJson> {
    const token = randomToken(SESSION_TOKEN_PREFIX);
    const session = new Session(
      { tokenHash: sha256(token), userId: user.id, organizationId: organization.id },
      now,
    );
    em.persist(session);
    try {
      await em.flush();
    } catch (err) {
      if (err instanceof UniqueConstraintViolationException) throw emailTaken();
      throw err;
    }
    return signedInView(token, session.expiresAt, user, organization, role);
  }
}
