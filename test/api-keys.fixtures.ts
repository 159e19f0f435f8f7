import { RequestContext } from '@mikro-orm/core';
import type { Response } from 'supertest';
import type Test from 'supertest/lib/test';
import { OrganizationsService } from '@app/identity';
import type { SignedIn, TestApp } from './test-app';
import { expectError } from './envelope';
export { expectError };

/** What `POST /api-keys` answers: the secret is shown only here. */
export interface CreatedKey {
  id: string;
  key: string;
  prefixHint: string;
  scopes: string[];
}

export interface KeyBody {
  name?: string;
  scopes?: string[];
  allowedOrigins?: string[];
  expiresInDays?: number;
}

/** A session route called as `who`. */
export const asSession = (req: Test, who: SignedIn): Test => req.auth(who.token, { type: 'bearer' });

/** A `/v1` call with `secret` as `Authorization: Bearer`. */
export const asKey = (req: Test, secret: string): Test => req.auth(secret, { type: 'bearer' });

/** `POST /api-keys` as `owner`; fails the test unless the key is made. */
export async function createKey(t: TestApp, owner: SignedIn, body: KeyBody = {}): Promise<CreatedKey> {
  const res = await asSession(t.http.post('/api-keys'), owner).send({ name: 'Integration', ...body });
  if (res.status !== 201) throw new Error(`key not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as CreatedKey;
}

/** The row of `keyId` in `GET /api-keys` as seen by `viewer`. */
export async function keyRow(t: TestApp, viewer: SignedIn, keyId: string): Promise<Record<string, unknown>> {
  const res = await asSession(t.http.get('/api-keys'), viewer).expect(200);
  const row = (res.body as Record<string, unknown>[]).find((r) => r.id === keyId);
  if (!row) throw new Error(`key ${keyId} not listed`);
  return row;
}

/**
 * Moves the clock on by `ms`. Sessions last 12 hours, so each of `people` signs in again at the
 * new time (their `token` is replaced in place).
 */
export async function advanceClock(t: TestApp, ms: number, ...people: SignedIn[]): Promise<void> {
  t.clock.advance(ms);
  for (const person of people) {
    const res = await t.http.post('/auth/sign-in').send({ email: person.email, password: person.password });
    if (res.status !== 200 && res.status !== 201) throw new Error(`sign-in failed: ${res.status}`);
    person.token = res.body.token;
  }
}

/** Direct SQL, for states no route makes (older, ownerless or service-set keys). */
export async function sql(t: TestApp, query: string, params: unknown[] = []): Promise<void> {
  await t.orm.em.getConnection().execute(query, params);
}

/** Makes a key "older": its chain began before 4 October 2026. */
export const makeOlder = (t: TestApp, keyId: string) =>
  sql(t, `update api_keys set lineage_created_at = '2026-09-01T00:00:00Z' where id = ?`, [keyId]);

/** Operator switches, run the way a request would run them. */
export const organizations = (t: TestApp) => {
  const service = t.get(OrganizationsService);
  const inContext = <T>(work: () => Promise<T>) => RequestContext.create(t.orm.em, work);
  return {
    setPlan: (organizationId: string, active: boolean) =>
      inContext(() => service.setPlan(organizationId, active)),
    setDisabled: (organizationId: string, disabled: boolean) =>
      inContext(() => service.setDisabled(organizationId, disabled)),
  };
};

/** A 400 VALIDATION_FAILED whose `details.issues` is a non-empty list of {path, message}. */
export function expectValidationFailed(res: Response): void {
  expectError(res, 400, 'VALIDATION_FAILED');
  expect(res.body.error.details.issues).toEqual(
    expect.arrayContaining([{ path: expect.any(String), message: expect.any(String) }]),
  );
}

/** A 401 carrying `WWW-Authenticate: Bearer realm=...`. */
export function expectUnauthenticated(res: Response): void {
  expectError(res, 401, 'UNAUTHENTICATED');
  expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="?[^"]+"?$/);
}
