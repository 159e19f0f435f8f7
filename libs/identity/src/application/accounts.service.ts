import { EntityManager, LockMode, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import {
  Clock,
  conflict,
  randomToken,
  SESSION_TOKEN_PREFIX,
  SessionPrincipal,
  sha256,
  unauthenticated,
  type Role,
} from '@app/platform';
import { Invitation } from '../domain/invitation.entity';
import { Membership } from '../domain/membership.entity';
import { Organization } from '../domain/organization.entity';
import { Session } from '../domain/session.entity';
import { normalizeEmail, User } from '../domain/user.entity';
import { PasswordHasher } from './password-hasher';
import { AuthView, organizationSummary, userSummary } from './views';

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

/** Sign-up, sign-in, sign-out and invitations accepted: everything that opens a session. */
@Injectable()
export class AccountsService {
  constructor(
    private readonly em: EntityManager,
    private readonly passwords: PasswordHasher,
    private readonly clock: Clock,
  ) {}

  /** A new agency with its first admin; its plan starts active. */
  async signUp(input: SignUp): Promise<AuthView> {
    const now = this.clock.now();
    await this.refuseTakenEmail(input.email);
    const organization = new Organization(input.organizationName, now);
    const user = new User({ ...input, passwordHash: await this.passwords.hash(input.password) }, now);
    const membership = new Membership(organization.id, user.id, 'admin', now);
    this.em.persist([organization, user, membership]);
    return this.openSession(user, organization, membership.role, now);
  }

  /** The same 401, in the same time, for an unknown email and a wrong password. */
  async signIn(email: string, password: string): Promise<AuthView> {
    const user = await this.em.findOne(
      User,
      { email: normalizeEmail(email) },
      { populate: ['passwordHash'] },
    );
    const valid = user
      ? await this.passwords.verify(user.passwordHash, password)
      : await this.passwords.verifyNobody(password);
    const membership = user && valid ? await this.em.findOne(Membership, { userId: user.id }) : null;
    if (!user || !membership) throw unauthenticated('Wrong email or password.');
    const organization = await this.em.findOneOrFail(Organization, membership.organizationId);
    return this.openSession(user, organization, membership.role, this.clock.now());
  }

  async signOut(actor: SessionPrincipal): Promise<void> {
    const session = await this.em.findOneOrFail(Session, actor.sessionId);
    session.revoke(this.clock.now());
    await this.em.flush();
  }

  async session(actor: SessionPrincipal) {
    const [user, organization] = await Promise.all([
      this.em.findOneOrFail(User, actor.userId),
      this.em.findOneOrFail(Organization, actor.organizationId),
    ]);
    return {
      user: userSummary(user),
      organization: organizationSummary(organization),
      role: actor.role,
      expiresAt: actor.expiresAt.toISOString(),
    };
  }

  /**
   * A new person joins with the invited role; a used or expired token answers 410. The invitation
   * row stays locked until the person exists, so two calls with one token cannot both get past it.
   */
  async acceptInvitation(input: AcceptInvitation): Promise<AuthView> {
    const passwordHash = await this.passwords.hash(input.password);
    return this.em.transactional(async (em) => {
      const now = this.clock.now();
      const invitation = await em.findOne(
        Invitation,
        { tokenHash: sha256(input.token) },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      if (!invitation) throw unauthenticated('Unknown invitation.');
      invitation.accept(now);
      const organization = await em.findOneOrFail(Organization, invitation.organizationId);
      const user = await this.joiningPerson(
        em,
        invitation.email,
        { passwordHash, firstName: input.firstName, lastName: input.lastName },
        now,
      );
      const membership = new Membership(organization.id, user.id, invitation.role, now);
      em.persist([user, membership]);
      return this.openSession(user, organization, membership.role, now, em);
    });
  }

  /**
   * A new person, or one who left an agency coming back (same person id, new password and
   * name). Someone still in an agency answers 409.
   */
  private async joiningPerson(
    em: EntityManager,
    email: string,
    props: { passwordHash: string; firstName: string; lastName: string },
    now: Date,
  ): Promise<User> {
    const existing = await em.findOne(User, { email: normalizeEmail(email) }, { populate: ['passwordHash'] });
    if (!existing) return new User({ email, ...props }, now);
    if ((await em.count(Membership, { userId: existing.id })) > 0) throw emailTaken();
    existing.rejoin(props, now);
    return existing;
  }

  private async refuseTakenEmail(email: string): Promise<void> {
    if ((await this.em.count(User, { email: normalizeEmail(email) })) > 0) throw emailTaken();
  }

  /** Flushes everything persisted so far with the new session: one transaction per use-case. */
  private async openSession(
    user: User,
    organization: Organization,
    role: Role,
    now: Date,
    em: EntityManager = this.em,
  ): Promise<AuthView> {
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
    return {
      token,
      expiresAt: session.expiresAt.toISOString(),
      user: userSummary(user),
      organization: organizationSummary(organization),
      role,
    };
  }
}
