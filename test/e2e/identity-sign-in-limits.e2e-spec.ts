import type { Response } from 'supertest';
import { MINUTE } from '@app/platform';
import { startApi } from '../api-child';
import { expectError, SignedIn, TestApp, uniqueEmail } from '../fixtures';

const WEAK = { issues: [{ path: 'password', message: 'password is too easy to guess' }] };
const STRONG = 'violeta-sur-puerta-82';

/** 429 RATE_LIMITED in the envelope, with `Retry-After` within `windowMs` and `X-RateLimit-Reset`. */
function expectRateLimited(res: Response, windowMs: number): void {
  expectError(res, 429, 'RATE_LIMITED');
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowMs / 1000);
  expect(res.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
}

describe('identity: guessing refused (sign-in, sign-up and invitation limits; weak passwords)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // behind one proxy, so each test picks its client addresses with X-Forwarded-For
    t = await TestApp.start({ env: { TRUST_PROXY_HOPS: '1' } });
  });
  afterAll(() => t.stop());
  let minutes = 0;
  beforeEach(async () => {
    await t.resetRows();
    // a fresh window for every test (the longest is an hour), whatever the wall clock says
    minutes += 24 * 60;
    t.clock.advance(minutes * MINUTE);
  });

  let last = 0;
  const freshAddress = () => {
    last += 1;
    return `198.51.${Math.floor(last / 250)}.${(last % 250) + 1}`;
  };
  const signIn = (from: string, email: string, password: string) =>
    t.http.post('/auth/sign-in').set('X-Forwarded-For', from).send({ email, password });
  const signUp = (from: string, body: Record<string, unknown> = {}) =>
    t.http
      .post('/auth/sign-up')
      .set('X-Forwarded-For', from)
      .send({
        organizationName: 'Sol Homes',
        email: uniqueEmail('signup'),
        password: STRONG,
        firstName: 'Lucía',
        lastName: 'Ortega',
        ...body,
      });
  const invite = async (admin: SignedIn, email = uniqueEmail('invitee')) => {
    const res = await t.http
      .post('/organization/invitations')
      .auth(admin.token, { type: 'bearer' })
      .send({ email, role: 'member' })
      .expect(201);
    return res.body.token as string;
  };
  const accept = (from: string, token: string, body: Record<string, unknown> = {}) =>
    t.http
      .post('/auth/accept-invitation')
      .set('X-Forwarded-For', from)
      .send({ token, password: STRONG, firstName: 'Iris', lastName: 'Invited', ...body });

  describe('POST /auth/sign-in', () => {
    it('refuses the 11th wrong password for one email from one address with 429 and Retry-After', async () => {
      const admin = await t.seed.organization();
      const attacker = freshAddress();
      for (let i = 0; i < 10; i++)
        expectError(await signIn(attacker, admin.email, `wrong guess ${i}`), 401, 'UNAUTHENTICATED');
      const refused = await signIn(attacker, admin.email, 'wrong guess 10');
      expectRateLimited(refused, 15 * MINUTE);
      expect(refused.body.error.message).toBe('Too many failed sign-ins; wait Retry-After seconds.');
      // the right password from that address waits too; any spelling of the email is the same email
      expectRateLimited(await signIn(attacker, admin.email, admin.password), 15 * MINUTE);
      expectRateLimited(
        await signIn(attacker, ` ${admin.email.toUpperCase()} `, 'wrong guess 11'),
        15 * MINUTE,
      );

      // the person, from an address that has not failed, signs in while the attacker is held back
      const person = await signIn(freshAddress(), admin.email, admin.password);
      expect(person.status).toBe(200);
      expect(person.body.user.id).toBe(admin.userId);
      expectRateLimited(await signIn(attacker, admin.email, 'wrong guess 12'), 15 * MINUTE);

      // the window over, the address may try again
      t.clock.advance(15 * MINUTE);
      expectError(await signIn(attacker, admin.email, 'wrong guess 13'), 401, 'UNAUTHENTICATED');
    });

    it('answers an unknown email exactly as a known one: 10 failures, then 429', async () => {
      const attacker = freshAddress();
      const nobody = uniqueEmail('nobody');
      for (let i = 0; i < 10; i++)
        expectError(await signIn(attacker, nobody, `wrong guess ${i}`), 401, 'UNAUTHENTICATED');
      expectRateLimited(await signIn(attacker, nobody, 'wrong guess 10'), 15 * MINUTE);
    });

    it('counts successful sign-ins as nothing', async () => {
      const admin = await t.seed.organization();
      const office = freshAddress();
      for (let i = 0; i < 12; i++)
        expect((await signIn(office, admin.email, admin.password)).status).toBe(200);
      for (let i = 0; i < 10; i++)
        expectError(await signIn(office, admin.email, `typo ${i}`), 401, 'UNAUTHENTICATED');
      expectRateLimited(await signIn(office, admin.email, 'typo 10'), 15 * MINUTE);
    });

    it('refuses an address past 30 failures across many emails, and only that address', async () => {
      const admin = await t.seed.organization();
      const sprayer = freshAddress();
      for (let i = 0; i < 30; i++) {
        expectError(await signIn(sprayer, uniqueEmail(`spray${i}`), 'Summer2026!'), 401, 'UNAUTHENTICATED');
      }
      expectRateLimited(await signIn(sprayer, uniqueEmail('spray30'), 'Summer2026!'), 15 * MINUTE);
      // that address has failed: even the right password of someone else waits there
      expectRateLimited(await signIn(sprayer, admin.email, admin.password), 15 * MINUTE);
      expect((await signIn(freshAddress(), admin.email, admin.password)).status).toBe(200);
    });

    it('lets no burst of parallel guesses past the limit', async () => {
      const admin = await t.seed.organization();
      const attacker = freshAddress();
      const answers = await Promise.all(
        Array.from({ length: 25 }, (_, i) => signIn(attacker, admin.email, `parallel guess ${i}`)),
      );
      const statuses = answers.map((res) => res.status).sort();
      expect(statuses).toEqual([...Array<number>(10).fill(401), ...Array<number>(15).fill(429)]);
    });

    it('past 100 failures for one email from many addresses, holds back each address that has failed for it; never the person', async () => {
      const admin = await t.seed.organization();
      const botnet = Array.from({ length: 20 }, freshAddress);
      for (let round = 0; round < 5; round++) {
        const answers = await Promise.all(
          botnet.map((from, i) => signIn(from, admin.email, `guess ${round}-${i}`)),
        );
        expect(answers.map((res) => res.status)).toEqual(Array<number>(20).fill(401));
      }
      // 100 failures: an address that has failed for this email waits, though under its own 10
      expectRateLimited(await signIn(botnet[0], admin.email, 'guess 5-0'), 15 * MINUTE);
      // a new address gets one try, then waits too
      const newcomer = freshAddress();
      expectError(await signIn(newcomer, admin.email, 'guess 5-x'), 401, 'UNAUTHENTICATED');
      expectRateLimited(await signIn(newcomer, admin.email, 'guess 6-x'), 15 * MINUTE);
      // the person, from their own address, is never refused
      expect((await signIn(freshAddress(), admin.email, admin.password)).status).toBe(200);
      // another person from a botnet address is not held back by this email's ceiling
      const other = await t.seed.organization();
      expect((await signIn(botnet[1], other.email, other.password)).status).toBe(200);
    });
  });

  describe('POST /auth/sign-up', () => {
    it('takes 10 sign-ups an hour from one address, whatever their answers; the 11th is 429', async () => {
      const from = freshAddress();
      for (let i = 0; i < 7; i++) expect((await signUp(from)).status).toBe(201);
      expectError(await signUp(from, { email: 'not-an-email' }), 400, 'VALIDATION_FAILED');
      expectError(await signUp(from, { password: 'password1234' }), 400, 'VALIDATION_FAILED');
      expect((await signUp(from)).status).toBe(201);
      expectRateLimited(await signUp(from), 60 * MINUTE);
      expect((await signUp(freshAddress())).status).toBe(201);
      t.clock.advance(60 * MINUTE);
      expect((await signUp(from)).status).toBe(201);
    });

    it.each([
      ['a common password', 'password1234'],
      ['a keyboard row', 'qwertyuiop123'],
      ["the person's own email", 'lucia.ortega2026'],
      ["the person's name", 'Lucía Ortega 1'],
      ["the agency's name", 'Sol Homes Madrid 1'],
    ])('refuses %s with 400 VALIDATION_FAILED at password, and creates nothing', async (_, password) => {
      const email = 'lucia.ortega@solhomes.example';
      const from = freshAddress();
      const res = await signUp(from, { email, password, organizationName: 'Sol Homes Madrid' });
      expectError(res, 400, 'VALIDATION_FAILED', WEAK);
      expect((await signUp(from, { email })).status).toBe(201);
    });

    it('keeps the length rules: under 10 characters is refused as before', async () => {
      const res = await signUp(freshAddress(), { password: 'Kx9#mQ2v' });
      expectError(res, 400, 'VALIDATION_FAILED', {
        issues: [{ path: 'password', message: 'password must be at least 10 characters' }],
      });
    });
  });

  describe('POST /auth/accept-invitation', () => {
    it('takes 10 tries with one token, from any addresses; the 11th is 429', async () => {
      const admin = await t.seed.organization();
      const token = await invite(admin);
      for (let i = 0; i < 10; i++) {
        expectError(
          await accept(freshAddress(), token, { password: `password${i}${i}${i}` }),
          400,
          'VALIDATION_FAILED',
          WEAK,
        );
      }
      expectRateLimited(await accept(freshAddress(), token), 60 * MINUTE);
      // another invitation is counted apart
      expect((await accept(freshAddress(), await invite(admin))).status).toBe(201);
    });

    it('takes 30 tries an hour from one address, whatever the tokens', async () => {
      const admin = await t.seed.organization();
      const guesser = freshAddress();
      for (let i = 0; i < 30; i++) {
        expectError(await accept(guesser, `guessed-token-${i}`), 401, 'UNAUTHENTICATED');
      }
      const token = await invite(admin);
      expectRateLimited(await accept(guesser, token), 60 * MINUTE);
      expect((await accept(freshAddress(), token)).status).toBe(201);
    });

    it('refuses a weak password, or one made of the invited email, and leaves the invitation open', async () => {
      const admin = await t.seed.organization();
      const token = await invite(admin, 'marco.bianchi@casa.example');
      const from = freshAddress();
      expectError(await accept(from, token, { password: 'letmein12345' }), 400, 'VALIDATION_FAILED', WEAK);
      expectError(await accept(from, token, { password: 'marco.bianchi1' }), 400, 'VALIDATION_FAILED', WEAK);
      const joined = await accept(from, token, { firstName: 'Marco', lastName: 'Bianchi' });
      expect(joined.status).toBe(201);
      expect(joined.body.user.email).toBe('marco.bianchi@casa.example');
    });
  });

  describe('the log', () => {
    it('has a line for each failed and successful sign-in, with the request id; never the password or the email', async () => {
      const api = await startApi();
      const password = 'pluma-verde-tejado-47';
      const email = uniqueEmail('logged');
      const post = (path: string, body: object) =>
        fetch(`http://127.0.0.1:${api.port}${path}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });
      try {
        const signedUp = await post('/auth/sign-up', {
          organizationName: 'Logged Homes',
          email,
          password,
          firstName: 'Lola',
          lastName: 'Logged',
        });
        expect(signedUp.status).toBe(201);
        const { user } = (await signedUp.json()) as { user: { id: string } };
        const wrong = await post('/auth/sign-in', { email, password: 'wrong-horse-staple-11' });
        expect(wrong.status).toBe(401);
        const right = await post('/auth/sign-in', { email, password });
        expect(right.status).toBe(200);

        expect(await api.line('sign-in failed')).toMatchObject({
          level: 40,
          context: 'Auth',
          requestId: wrong.headers.get('x-request-id'),
          userId: user.id,
          clientAddress: expect.any(String),
        });
        expect(await api.line('sign-in succeeded')).toMatchObject({
          level: 30,
          context: 'Auth',
          requestId: right.headers.get('x-request-id'),
          userId: user.id,
        });
      } finally {
        api.signal('SIGTERM');
        await api.exited;
      }
      const everything = api.lines().map((line) => JSON.stringify(line));
      expect(everything.filter((line) => /pluma-verde|wrong-horse/.test(line))).toEqual([]);
      expect(everything.filter((line) => line.includes(email))).toEqual([]);
    });
  });
});
