import type { Test } from 'supertest';
import { HOUR } from '@app/platform';
import {
  expectError,
  expectUnauthenticated,
  expectValidationExactly,
  postSignUp,
  TestApp,
  uniqueEmail,
} from '../fixtures';

const AT = new Date('2026-11-23T10:00:00.000Z');

describe('identity: sign-up, sign-in, sign-out, session', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.stop());
  let hours = 0;
  beforeEach(async () => {
    await t.resetRows();
    // each test in an hour of its own: one address may sign up 10 times an hour
    t.clock.advance(++hours * HOUR);
  });

  const session = (token: string) => t.http.get('/auth/session').auth(token, { type: 'bearer' });
  const signUpBody = (overrides: Record<string, unknown> = {}) => ({
    organizationName: 'Casa Agency',
    email: uniqueEmail('signup'),
    password: 'correct horse battery',
    firstName: 'Ana',
    lastName: 'Admin',
    ...overrides,
  });

  describe('POST /auth/sign-up', () => {
    it('creates the agency and its admin and answers a 12-hour session', async () => {
      t.clock.set(AT);
      const body = signUpBody({ organizationName: 'Sol Homes', firstName: 'Lucía', lastName: 'Ortega' });
      const res = await t.http.post('/auth/sign-up').send(body);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        token: expect.any(String),
        expiresAt: new Date(AT.getTime() + 12 * HOUR).toISOString(),
        user: { id: expect.any(String), email: body.email, firstName: 'Lucía', lastName: 'Ortega' },
        organization: { id: expect.any(String), name: 'Sol Homes' },
        role: 'admin',
      });
      expect(res.body.token.length).toBeGreaterThanOrEqual(32);
      expect(res.body.user.id).not.toBe(res.body.organization.id);

      const me = await session(res.body.token);
      expect(me.status).toBe(200);
      expect(me.body).toEqual({
        user: res.body.user,
        organization: res.body.organization,
        role: 'admin',
        expiresAt: res.body.expiresAt,
      });
    });

    it("starts the new organization's plan active", async () => {
      const admin = await postSignUp(t);
      const rows = await t.orm.em
        .fork()
        .getConnection()
        .execute<{ plan_active: boolean }[]>('select plan_active from organizations where id = ?', [
          admin.organizationId,
        ]);
      expect(rows).toEqual([{ plan_active: true }]);
    });

    it('gives every sign-up its own organization', async () => {
      const a = await postSignUp(t);
      const b = await postSignUp(t);
      expect(a.organizationId).not.toBe(b.organizationId);
      const members = await t.http.get('/organization/members').auth(b.token, { type: 'bearer' }).expect(200);
      expect(members.body.data.map((m: { userId: string }) => m.userId)).toEqual([b.userId]);
    });

    it('refuses an email already registered, whatever its case, with 409 CONFLICT', async () => {
      const email = uniqueEmail('taken');
      await t.seed.organization({ email });
      const res = await t.http
        .post('/auth/sign-up')
        .send(signUpBody({ email: email.toUpperCase(), password: 'another password 2' }));
      expectError(res, 409, 'CONFLICT');

      // the first account is untouched: its password still signs in, the second one does not
      const ok = await t.http.post('/auth/sign-in').send({ email, password: 'correct horse battery' });
      expect(ok.status).toBe(200);
      const refused = await t.http.post('/auth/sign-in').send({ email, password: 'another password 2' });
      expectUnauthenticated(refused);
    });

    it('lets only one of two simultaneous sign-ups with one email through', async () => {
      for (let round = 0; round < 3; round++) {
        const email = uniqueEmail('race');
        const answers = await Promise.all([
          t.http.post('/auth/sign-up').send(signUpBody({ email })),
          t.http.post('/auth/sign-up').send(signUpBody({ email: email.toUpperCase() })),
        ]);
        expect(answers.map((res) => res.status).sort()).toEqual([201, 409]);
        expectError(
          answers.find((res) => res.status === 409)!,
          409,
          'CONFLICT',
        );
      }
    });

    it('refuses the exact same email with 409 CONFLICT', async () => {
      const email = uniqueEmail('same');
      await t.seed.organization({ email });
      expectError(await t.http.post('/auth/sign-up').send(signUpBody({ email })), 409, 'CONFLICT');
    });

    it('refuses a password under 10 characters with 400 VALIDATION_FAILED naming password', async () => {
      const res = await t.http.post('/auth/sign-up').send(signUpBody({ password: '123456789' }));
      expectValidationExactly(res, ['password']);
    });

    it('takes a password of exactly 10 characters', async () => {
      const email = uniqueEmail('ten');
      const res = await t.http.post('/auth/sign-up').send(signUpBody({ email, password: 'Kx9#mQ2vLp' }));
      expect(res.status).toBe(201);
      await t.http.post('/auth/sign-in').send({ email, password: 'Kx9#mQ2vLp' }).expect(200);
    });

    it('names every missing field in details.issues', async () => {
      const res = await t.http.post('/auth/sign-up').send({});
      expectValidationExactly(res, ['organizationName', 'email', 'password', 'firstName', 'lastName']);
    });

    it('refuses a malformed email with 400 VALIDATION_FAILED naming email', async () => {
      const res = await t.http.post('/auth/sign-up').send(signUpBody({ email: 'not-an-email' }));
      expectValidationExactly(res, ['email']);
    });

    it('refuses a body that is not sent as JSON with 400 BAD_REQUEST', async () => {
      const res = await t.http
        .post('/auth/sign-up')
        .set('Content-Type', 'text/plain')
        .send(JSON.stringify(signUpBody()));
      expectError(res, 400, 'BAD_REQUEST');
    });

    it('creates nothing when refused', async () => {
      const email = uniqueEmail('refused');
      await t.http
        .post('/auth/sign-up')
        .send(signUpBody({ email, password: 'short' }))
        .expect(400);
      const res = await t.http.post('/auth/sign-up').send(signUpBody({ email }));
      expect(res.status).toBe(201);
    });
  });

  describe('POST /auth/sign-in', () => {
    it('opens a new session with the sign-up shape', async () => {
      t.clock.set(AT);
      const admin = await t.seed.organization({ name: 'Mar Realty', firstName: 'Rita', lastName: 'Reyes' });
      t.clock.advance(HOUR);
      const res = await t.http.post('/auth/sign-in').send({ email: admin.email, password: admin.password });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        token: expect.any(String),
        expiresAt: new Date(AT.getTime() + 13 * HOUR).toISOString(),
        user: { id: admin.userId, email: admin.email, firstName: 'Rita', lastName: 'Reyes' },
        organization: { id: admin.organizationId, name: 'Mar Realty' },
        role: 'admin',
      });
      expect(res.body.token).not.toBe(admin.token);
      // both sessions work side by side
      await session(res.body.token).expect(200);
      await session(admin.token).expect(200);
    });

    it('finds the person whatever the case of the email', async () => {
      const admin = await t.seed.organization();
      const res = await t.http
        .post('/auth/sign-in')
        .send({ email: admin.email.toUpperCase(), password: admin.password });
      expect(res.status).toBe(200);
      expect(res.body.user.id).toBe(admin.userId);
    });

    it('answers an unknown email and a wrong password with the same 401', async () => {
      const admin = await t.seed.organization();
      const unknown = await t.http
        .post('/auth/sign-in')
        .send({ email: uniqueEmail('nobody'), password: admin.password });
      const wrong = await t.http
        .post('/auth/sign-in')
        .send({ email: admin.email, password: 'wrong password 99' });
      expectUnauthenticated(unknown);
      expectUnauthenticated(wrong);
      expect(unknown.headers['www-authenticate']).toBe(wrong.headers['www-authenticate']);
      expect(unknown.body.requestId).not.toBe(wrong.body.requestId);
      expect({ ...unknown.body, requestId: null }).toEqual({ ...wrong.body, requestId: null });
      expect(wrong.body.token).toBeUndefined();
    });

    it('refuses a missing password with 400 VALIDATION_FAILED', async () => {
      const admin = await t.seed.organization();
      expectValidationExactly(await t.http.post('/auth/sign-in').send({ email: admin.email }), ['password']);
    });

    it('reports the current role of an invited member', async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin, 'member');
      const res = await t.http.post('/auth/sign-in').send({ email: member.email, password: member.password });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ role: 'member', organization: { id: admin.organizationId } });
    });
  });

  describe('POST /auth/sign-out', () => {
    it('answers 204 and the token answers 401 afterwards', async () => {
      const admin = await t.seed.organization();
      const res = await t.http.post('/auth/sign-out').auth(admin.token, { type: 'bearer' });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expectUnauthenticated(await session(admin.token));
      expectUnauthenticated(await t.http.get('/organization/members').auth(admin.token, { type: 'bearer' }));
      expectUnauthenticated(await t.http.post('/auth/sign-out').auth(admin.token, { type: 'bearer' }));
    });

    it("ends only that session, not the person's other ones", async () => {
      const admin = await t.seed.organization();
      const other = await t.http
        .post('/auth/sign-in')
        .send({ email: admin.email, password: admin.password })
        .expect(200);
      await t.http.post('/auth/sign-out').auth(admin.token, { type: 'bearer' }).expect(204);
      await session(other.body.token).expect(200);
      expectUnauthenticated(await session(admin.token));
    });

    it('refuses a body, even {}, with 400 BAD_REQUEST and keeps the session', async () => {
      const admin = await t.seed.organization();
      const res = await t.http.post('/auth/sign-out').auth(admin.token, { type: 'bearer' }).send({});
      expectError(res, 400, 'BAD_REQUEST');
      await session(admin.token).expect(200);
    });

    it('answers 401 without a credential', async () => {
      expectUnauthenticated(await t.http.post('/auth/sign-out'));
    });
  });

  describe('GET /auth/session', () => {
    it("answers a member's session with their role", async () => {
      const admin = await t.seed.organization({ name: 'Luna Estates' });
      const member = await t.seed.member(admin, 'member', 'Marco');
      const res = await session(member.token);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        user: { id: member.userId, email: member.email, firstName: 'Marco', lastName: 'Member' },
        organization: { id: admin.organizationId, name: 'Luna Estates' },
        role: 'member',
        expiresAt: expect.any(String),
      });
      expect(Number.isNaN(Date.parse(res.body.expiresAt))).toBe(false);
    });

    it('ends the session 12 hours after it was opened, however much it is used', async () => {
      t.clock.set(AT);
      const admin = await t.seed.organization();
      t.clock.advance(6 * HOUR);
      await session(admin.token).expect(200);
      t.clock.advance(6 * HOUR - 1000);
      const last = await session(admin.token);
      expect(last.status).toBe(200);
      expect(last.body.expiresAt).toBe(new Date(AT.getTime() + 12 * HOUR).toISOString());
      t.clock.advance(1000);
      expectUnauthenticated(await session(admin.token));
      expectUnauthenticated(await t.http.get('/tags').auth(admin.token, { type: 'bearer' }));

      // signing in again opens a fresh 12 hours
      const again = await t.http
        .post('/auth/sign-in')
        .send({ email: admin.email, password: admin.password })
        .expect(200);
      expect(again.body.expiresAt).toBe(new Date(AT.getTime() + 24 * HOUR).toISOString());
      await session(again.body.token).expect(200);
    });
  });

  describe('credentials on session routes', () => {
    const apiKeyLooking = `svc_pk_${'A1b2C3d4'.repeat(4)}`;
    const routes: [string, (token?: string) => Test][] = [];

    const call =
      (method: 'get' | 'post' | 'patch' | 'delete', path: string, body?: object) =>
      (token?: string): Test => {
        let req = t.http[method](path);
        if (token) req = req.set('Authorization', `Bearer ${token}`);
        return body ? req.send(body) : req;
      };
    const someId = '0190b3c4-1111-7222-8333-444455556666';
    routes.push(
      ['GET /auth/session', call('get', '/auth/session')],
      ['POST /auth/sign-out', call('post', '/auth/sign-out')],
      [
        'POST /organization/invitations',
        call('post', '/organization/invitations', { email: 'x@example.test', role: 'member' }),
      ],
      ['GET /organization/members', call('get', '/organization/members')],
      [
        'PATCH /organization/members/:userId',
        call('patch', `/organization/members/${someId}`, { role: 'admin' }),
      ],
      ['DELETE /organization/members/:userId', call('delete', `/organization/members/${someId}`)],
      ['GET /organization/teams', call('get', '/organization/teams')],
      ['POST /organization/teams', call('post', '/organization/teams', { name: 'Sales' })],
      [
        'PATCH /organization/teams/:teamId',
        call('patch', `/organization/teams/${someId}`, { name: 'Sales' }),
      ],
      ['DELETE /organization/teams/:teamId', call('delete', `/organization/teams/${someId}`)],
      ['GET /tags', call('get', '/tags')],
      ['POST /tags', call('post', '/tags', { name: 'VIP' })],
      ['PATCH /tags/:tagId', call('patch', `/tags/${someId}`, { name: 'VIP' })],
      ['DELETE /tags/:tagId', call('delete', `/tags/${someId}`)],
    );

    it.each(routes)(
      '%s answers 401 without a credential, with garbage, or with an API-key-looking token',
      async (_, send) => {
        await t.seed.organization();
        expectUnauthenticated(await send());
        expectUnauthenticated(await send('garbage'));
        expectUnauthenticated(await send(apiKeyLooking));
        expectUnauthenticated(await send(`svc_ses_${'0'.repeat(43)}`));
      },
    );

    it('refuses a session token sent with another scheme', async () => {
      const admin = await t.seed.organization();
      expectUnauthenticated(await t.http.get('/auth/session').set('Authorization', `Basic ${admin.token}`));
      expectUnauthenticated(await t.http.get('/auth/session').set('Authorization', admin.token));
    });

    it('refuses a tampered session token', async () => {
      const admin = await t.seed.organization();
      const last = admin.token.slice(-1);
      const tampered = admin.token.slice(0, -1) + (last === 'a' ? 'b' : 'a');
      expectUnauthenticated(await session(tampered));
    });

    it('answers 401 for a session token on /v1', async () => {
      const admin = await t.seed.organization();
      expectUnauthenticated(await t.http.get('/v1/me').auth(admin.token, { type: 'bearer' }));
    });
  });
});
