import type { Response } from 'supertest';
import { ApiKeyMaintenanceService } from '@app/identity';
import { asKey, expectError, TestApp } from '../fixtures';

const MINUTE = 60 * 1000;
/** 5 seconds into a fresh hour (so into fresh one-minute and ten-minute windows too). */
const HOUR_START = new Date('2027-01-04T09:00:00.000Z');
const T0 = new Date(HOUR_START.getTime() + 5000);
const epochSeconds = (date: Date) => Math.ceil(date.getTime() / 1000);

const limits = (res: Response) => ({
  short: res.headers['x-ratelimit-limit-short'],
  medium: res.headers['x-ratelimit-limit-medium'],
  long: res.headers['x-ratelimit-limit-long'],
});
const remaining = (res: Response) => ({
  short: res.headers['x-ratelimit-remaining-short'],
  medium: res.headers['x-ratelimit-remaining-medium'],
  long: res.headers['x-ratelimit-remaining-long'],
});

/** Spec Limits: per API key per endpoint, 120/min, 600/10 min, 3,000/h; a raised per-minute limit scales all three. */
describe('rate limits on /v1', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.stop());
  beforeEach(() => t.resetRows());

  const me = (secret: string) => asKey(t.http.get('/v1/me'), secret);
  /** A key whose per-minute limit an operator has set to `perMinute`. */
  const keyLimitedTo = async (perMinute: number, scopes = ['crm:read']) => {
    const admin = await t.seed.organization();
    const created = await t.seed.apiKey(admin, { scopes });
    await t.get(ApiKeyMaintenanceService).setRateLimit(created.id, perMinute);
    return { admin, ...created };
  };

  it('sends the three windows’ limits and what remains of them on every answer to a key', async () => {
    const admin = await t.seed.organization();
    const created = await t.seed.apiKey(admin);
    t.clock.set(T0);
    const answers = [await me(created.key), await me(created.key), await me(created.key)];
    answers.forEach((res, i) => {
      expect(res.status).toBe(200);
      expect(limits(res)).toEqual({ short: '120', medium: '600', long: '3000' });
      expect(remaining(res)).toEqual({ short: `${119 - i}`, medium: `${599 - i}`, long: `${2999 - i}` });
    });
  });

  it('answers 429 RATE_LIMITED with Retry-After and X-RateLimit-Reset past the per-minute limit', async () => {
    const key = await keyLimitedTo(2);
    t.clock.set(T0);
    const first = await me(key.key).expect(200);
    expect(limits(first)).toEqual({ short: '2', medium: '10', long: '50' });
    expect(remaining(first)).toEqual({ short: '1', medium: '9', long: '49' });
    expect(remaining(await me(key.key).expect(200)).short).toBe('0');

    const refused = await me(key.key);
    expectError(refused, 429, 'RATE_LIMITED');
    expect(refused.headers['retry-after']).toBe('55');
    expect(refused.headers['x-ratelimit-reset']).toBe(
      String(epochSeconds(new Date(HOUR_START.getTime() + MINUTE))),
    );
    expect(limits(refused)).toEqual({ short: '2', medium: '10', long: '50' });
    expect(remaining(refused).short).toBe('0');
  });

  it('lets the key in again once Retry-After has passed', async () => {
    const key = await keyLimitedTo(1);
    t.clock.set(T0);
    await me(key.key).expect(200);
    const refused = await me(key.key);
    expectError(refused, 429, 'RATE_LIMITED');
    t.clock.advance(Number(refused.headers['retry-after']) * 1000 - 1000);
    expectError(await me(key.key), 429, 'RATE_LIMITED');
    t.clock.advance(1000);
    await me(key.key).expect(200);
  });

  it('counts per endpoint: another route keeps its own budget', async () => {
    const key = await keyLimitedTo(2);
    t.clock.set(T0);
    await me(key.key).expect(200);
    await me(key.key).expect(200);
    expectError(await me(key.key), 429, 'RATE_LIMITED');
    const members = await asKey(t.http.get('/v1/members'), key.key).expect(200);
    expect(remaining(members)).toEqual({ short: '1', medium: '9', long: '49' });
    await asKey(t.http.get('/v1/tags'), key.key).expect(200);
  });

  it('counts per route template, whatever the path parameters', async () => {
    const key = await keyLimitedTo(2);
    t.clock.set(T0);
    expectError(await asKey(t.http.get('/v1/leads/1001'), key.key), 404, 'NOT_FOUND');
    expectError(await asKey(t.http.get('/v1/leads/1002'), key.key), 404, 'NOT_FOUND');
    expectError(await asKey(t.http.get('/v1/leads/1003'), key.key), 429, 'RATE_LIMITED');
  });

  it('counts per key: the owner’s other key is not limited by the first', async () => {
    const key = await keyLimitedTo(1);
    const other = await t.seed.apiKey(key.admin);
    t.clock.set(T0);
    await me(key.key).expect(200);
    expectError(await me(key.key), 429, 'RATE_LIMITED');
    const res = await me(other.key).expect(200);
    expect(remaining(res).short).toBe('119');
  });

  it('scales all three windows with a raised per-minute limit', async () => {
    const key = await keyLimitedTo(240);
    t.clock.set(T0);
    const res = await me(key.key).expect(200);
    expect(limits(res)).toEqual({ short: '240', medium: '1200', long: '6000' });
    expect(remaining(res)).toEqual({ short: '239', medium: '1199', long: '5999' });
  });

  it('applies the ten-minute window, scaled', async () => {
    const key = await keyLimitedTo(2);
    t.clock.set(T0);
    for (let minute = 0; minute < 5; minute += 1) {
      await me(key.key).expect(200);
      await me(key.key).expect(200);
      t.clock.advance(MINUTE);
    }
    // 09:05:05: a fresh minute, but 10 calls already in the 09:00-09:10 window
    const refused = await me(key.key);
    expectError(refused, 429, 'RATE_LIMITED');
    expect(remaining(refused)).toMatchObject({ short: '1', medium: '0' });
    expect(refused.headers['retry-after']).toBe(String(5 * 60 - 5));
    expect(refused.headers['x-ratelimit-reset']).toBe(
      String(epochSeconds(new Date(HOUR_START.getTime() + 10 * MINUTE))),
    );
    t.clock.set(new Date(HOUR_START.getTime() + 10 * MINUTE));
    await me(key.key).expect(200);
  });

  it('applies the hour window, scaled', async () => {
    const key = await keyLimitedTo(2);
    for (let tenMinutes = 0; tenMinutes < 5; tenMinutes += 1) {
      for (let minute = 0; minute < 5; minute += 1) {
        t.clock.set(new Date(HOUR_START.getTime() + (tenMinutes * 10 + minute) * MINUTE + 5000));
        await me(key.key).expect(200);
        await me(key.key).expect(200);
      }
    }
    // 09:50:05: fresh minute and ten-minute windows, but 50 calls this hour
    t.clock.set(new Date(HOUR_START.getTime() + 50 * MINUTE + 5000));
    const refused = await me(key.key);
    expectError(refused, 429, 'RATE_LIMITED');
    expect(remaining(refused)).toEqual({ short: '1', medium: '9', long: '0' });
    expect(refused.headers['retry-after']).toBe(String(10 * 60 - 5));
    expect(refused.headers['x-ratelimit-reset']).toBe(
      String(epochSeconds(new Date(HOUR_START.getTime() + 60 * MINUTE))),
    );
  });

  it('comes after the key rules: refused calls neither spend the budget nor turn into 429', async () => {
    const key = await keyLimitedTo(1, ['crm:read', 'crm:write']);
    await t.seed.plan(key.admin.organizationId, false);
    t.clock.set(T0);
    const bulk = () =>
      asKey(t.http.post('/v1/leads/status'), key.key).send({ leadIds: [], crmStatus: 'lead' });
    for (let i = 0; i < 3; i += 1) expectError(await bulk(), 403, 'SUBSCRIPTION_REQUIRED');
    for (let i = 0; i < 3; i += 1) {
      expectError(
        await asKey(t.http.get('/v1/me'), key.key).set('Origin', 'https://x.example'),
        403,
        'API_KEY_ORIGIN_NOT_ALLOWED',
      );
    }
    await t.seed.plan(key.admin.organizationId, true);
    await bulk().expect(200);
    await me(key.key).expect(200);
  });

  it('answers a refused call with the headers of its budget, spending none of it', async () => {
    const key = await keyLimitedTo(10, ['crm:read']);
    t.clock.set(T0);
    const create = () =>
      asKey(t.http.post('/v1/leads'), key.key).send({
        firstName: 'A',
        lastName: 'B',
        email: 'a@b.c',
        phoneNumber: '1',
        crmStatus: 'lead',
      });
    for (let i = 0; i < 2; i += 1) {
      const refused = await create();
      expectError(refused, 403, 'API_KEY_SCOPE_MISSING', { missing: ['crm:write'] });
      expect(limits(refused)).toEqual({ short: '10', medium: '50', long: '250' });
      expect(remaining(refused)).toEqual({ short: '10', medium: '50', long: '250' });
    }
    const allowed = await asKey(t.http.get('/v1/leads'), key.key).expect(200);
    expect(remaining(allowed).short).toBe('9');
  });
});
