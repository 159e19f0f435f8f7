import { DAY, HOUR } from '@app/platform';
import { expectError, expectValidationExactly, SignedIn, TestApp, uniqueEmail } from '../fixtures';

const AT = new Date('2026-11-23T10:00:00.000Z');

describe('identity: invitations', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.stop());
  beforeEach(() => t.resetRows());

  const invite = (by: SignedIn, body: object) =>
    t.http.post('/organization/invitations').auth(by.token, { type: 'bearer' }).send(body);
  const accept = (token: string, overrides: object = {}) =>
    t.http
      .post('/auth/accept-invitation')
      .send({ token, password: 'invited password 1', firstName: 'Iris', lastName: 'Invited', ...overrides });
  const members = (by: SignedIn) => t.http.get('/organization/members').auth(by.token, { type: 'bearer' });

  describe('POST /organization/invitations', () => {
    it('answers 201 with the invitation, its one-time token and a 7-day expiry', async () => {
      t.clock.set(AT);
      const admin = await t.seed.organization();
      const email = uniqueEmail('invitee');
      const res = await invite(admin, { email, role: 'member' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        email,
        role: 'member',
        token: expect.any(String),
        expiresAt: new Date(AT.getTime() + 7 * DAY).toISOString(),
      });
      expect(res.body.token.length).toBeGreaterThanOrEqual(32);
    });

    it('gives each invitation its own id and token', async () => {
      const admin = await t.seed.organization();
      const a = await invite(admin, { email: uniqueEmail('a'), role: 'member' }).expect(201);
      const b = await invite(admin, { email: uniqueEmail('b'), role: 'admin' }).expect(201);
      expect(a.body.id).not.toBe(b.body.id);
      expect(a.body.token).not.toBe(b.body.token);
      expect(b.body.role).toBe('admin');
    });

    it('refuses a member with 403 ORG_ADMIN_REQUIRED', async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin, 'member');
      const res = await invite(member, { email: uniqueEmail('x'), role: 'member' });
      expectError(res, 403, 'ORG_ADMIN_REQUIRED');
    });

    it('lets an invited admin invite in turn', async () => {
      const admin = await t.seed.organization();
      const second = await t.seed.member(admin, 'admin');
      const res = await invite(second, { email: uniqueEmail('third'), role: 'member' });
      expect(res.status).toBe(201);
    });

    it('answers 401 without a session', async () => {
      const res = await t.http
        .post('/organization/invitations')
        .send({ email: uniqueEmail('x'), role: 'member' });
      expectError(res, 401, 'UNAUTHENTICATED');
      expect(res.headers['www-authenticate']).toMatch(/^Bearer realm=/);
    });

    it('refuses an email already registered, whatever its case, with 409 CONFLICT', async () => {
      const admin = await t.seed.organization();
      const other = await t.seed.organization();
      expectError(await invite(admin, { email: other.email.toUpperCase(), role: 'member' }), 409, 'CONFLICT');
      expectError(await invite(admin, { email: admin.email, role: 'admin' }), 409, 'CONFLICT');
    });

    it('refuses a role outside admin/member and a malformed email with 400 VALIDATION_FAILED', async () => {
      const admin = await t.seed.organization();
      expectValidationExactly(await invite(admin, { email: uniqueEmail('x'), role: 'owner' }), ['role']);
      expectValidationExactly(await invite(admin, { email: 'nope', role: 'member' }), ['email']);
      expectValidationExactly(await invite(admin, {}), ['email', 'role']);
    });
  });

  describe('POST /auth/accept-invitation', () => {
    it('creates the person in the agency with the invited role and signs them in', async () => {
      t.clock.set(AT);
      const admin = await t.seed.organization({ name: 'Brisa Homes' });
      const email = uniqueEmail('joiner');
      const invitation = await invite(admin, { email, role: 'member' }).expect(201);
      t.clock.advance(HOUR);
      const res = await accept(invitation.body.token, { firstName: 'Jon', lastName: 'Joiner' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        token: expect.any(String),
        expiresAt: new Date(AT.getTime() + 13 * HOUR).toISOString(),
        user: { id: expect.any(String), email, firstName: 'Jon', lastName: 'Joiner' },
        organization: { id: admin.organizationId, name: 'Brisa Homes' },
        role: 'member',
      });

      const me = await t.http.get('/auth/session').auth(res.body.token, { type: 'bearer' }).expect(200);
      expect(me.body).toMatchObject({ user: { id: res.body.user.id }, role: 'member' });

      const list = await members(admin).expect(200);
      expect(list.body.data).toContainEqual({
        userId: res.body.user.id,
        firstName: 'Jon',
        lastName: 'Joiner',
        email,
        imageUrl: null,
        role: 'org:member',
      });

      // the chosen password signs in
      const signIn = await t.http.post('/auth/sign-in').send({ email, password: 'invited password 1' });
      expect(signIn.status).toBe(200);
      expect(signIn.body).toMatchObject({ role: 'member', organization: { id: admin.organizationId } });
    });

    it('gives an admin invitation the admin role', async () => {
      const admin = await t.seed.organization();
      const invitation = await invite(admin, { email: uniqueEmail('boss'), role: 'admin' }).expect(201);
      const res = await accept(invitation.body.token);
      expect(res.status).toBe(201);
      expect(res.body.role).toBe('admin');
      const list = await members(admin).expect(200);
      expect(list.body.data).toContainEqual(
        expect.objectContaining({ userId: res.body.user.id, role: 'org:admin' }),
      );
    });

    it('answers 410 GONE when the token is used again, and the first person keeps their account', async () => {
      const admin = await t.seed.organization();
      const email = uniqueEmail('once');
      const invitation = await invite(admin, { email, role: 'member' }).expect(201);
      const first = await accept(invitation.body.token).expect(201);
      const again = await accept(invitation.body.token, { password: 'hijack password 9' });
      expectError(again, 410, 'GONE');

      await t.http.get('/auth/session').auth(first.body.token, { type: 'bearer' }).expect(200);
      await t.http.post('/auth/sign-in').send({ email, password: 'invited password 1' }).expect(200);
      const hijack = await t.http.post('/auth/sign-in').send({ email, password: 'hijack password 9' });
      expectError(hijack, 401, 'UNAUTHENTICATED');
      expect((await members(admin)).body.data).toHaveLength(2);
    });

    it('answers 410 GONE to the loser when the token is used twice at the same time', async () => {
      for (let round = 0; round < 3; round++) {
        const admin = await t.seed.organization();
        const invitation = await invite(admin, { email: uniqueEmail('race'), role: 'member' }).expect(201);
        const answers = await Promise.all([accept(invitation.body.token), accept(invitation.body.token)]);
        expect(answers.map((res) => res.status).sort()).toEqual([201, 410]);
        expectError(
          answers.find((res) => res.status === 410)!,
          410,
          'GONE',
        );
        expect((await members(admin).expect(200)).body.data).toHaveLength(2);
      }
    });

    it('works until 7 days after it was sent', async () => {
      t.clock.set(AT);
      const admin = await t.seed.organization();
      const invitation = await invite(admin, { email: uniqueEmail('late'), role: 'member' }).expect(201);
      t.clock.set(new Date(AT.getTime() + 7 * DAY - 1000));
      const res = await accept(invitation.body.token);
      expect(res.status).toBe(201);
    });

    it('answers 410 GONE from 7 days after it was sent, and creates nobody', async () => {
      t.clock.set(AT);
      const admin = await t.seed.organization();
      const email = uniqueEmail('expired');
      const invitation = await invite(admin, { email, role: 'member' }).expect(201);
      // the admin's session would have ended by then; a fresh one lists members afterwards
      t.clock.set(new Date(AT.getTime() + 7 * DAY));
      expectError(await accept(invitation.body.token), 410, 'GONE');
      t.clock.advance(30 * DAY);
      expectError(await accept(invitation.body.token), 410, 'GONE');

      const signIn = await t.http
        .post('/auth/sign-in')
        .send({ email: admin.email, password: admin.password })
        .expect(200);
      const list = await t.http
        .get('/organization/members')
        .auth(signIn.body.token, { type: 'bearer' })
        .expect(200);
      expect(list.body.data.map((m: { email: string }) => m.email)).toEqual([admin.email]);
    });

    it('answers 409 CONFLICT when the email was registered after the invitation was sent', async () => {
      const admin = await t.seed.organization();
      const email = uniqueEmail('raced');
      const invitation = await invite(admin, { email, role: 'member' }).expect(201);
      await t.seed.organization({ email });
      expectError(await accept(invitation.body.token), 409, 'CONFLICT');
    });

    it('answers 409 CONFLICT to a second invitation for a person who already joined', async () => {
      const admin = await t.seed.organization();
      const email = uniqueEmail('twice');
      const first = await invite(admin, { email, role: 'member' }).expect(201);
      const second = await invite(admin, { email, role: 'admin' }).expect(201);
      await accept(first.body.token).expect(201);
      expectError(await accept(second.body.token), 409, 'CONFLICT');
      const list = await members(admin).expect(200);
      expect(list.body.data).toContainEqual(expect.objectContaining({ email, role: 'org:member' }));
    });

    it('refuses a password under 10 characters with 400 VALIDATION_FAILED and leaves the token usable', async () => {
      const admin = await t.seed.organization();
      const invitation = await invite(admin, { email: uniqueEmail('short'), role: 'member' }).expect(201);
      expectValidationExactly(await accept(invitation.body.token, { password: 'too short' }), ['password']);
      await accept(invitation.body.token).expect(201);
    });

    it('names every missing field in details.issues', async () => {
      expectValidationExactly(await t.http.post('/auth/accept-invitation').send({}), [
        'token',
        'password',
        'firstName',
        'lastName',
      ]);
    });

    it('refuses an unknown token with 401 UNAUTHENTICATED', async () => {
      await t.seed.organization();
      const res = await accept('svc_inv_not-a-real-invitation-token');
      expectError(res, 401, 'UNAUTHENTICATED');
    });

    it('takes no session: the invitation token alone is enough', async () => {
      const admin = await t.seed.organization();
      const invitation = await invite(admin, { email: uniqueEmail('anon'), role: 'member' }).expect(201);
      const res = await t.http.post('/auth/accept-invitation').set('Authorization', 'Bearer garbage').send({
        token: invitation.body.token,
        password: 'invited password 1',
        firstName: 'A',
        lastName: 'B',
      });
      expect(res.status).toBe(201);
    });
  });
});
