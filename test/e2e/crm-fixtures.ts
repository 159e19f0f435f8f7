import { RequestContext } from '@mikro-orm/core';
import type { Response } from 'supertest';
import type Test from 'supertest/lib/test';
import { OrganizationsService } from '@app/identity';
import type { SignedIn, TestApp } from '../test-app';
import { expectError } from '../envelope';
export { expectError };

/** Shared setup of the CRM specs: an agency with an admin, two members and a key for each. */

export const CRM_SCOPES = ['crm:read', 'crm:write'];

export interface Person extends SignedIn {
  /** A `/v1` key of this person holding crm:read and crm:write. */
  key: string;
}

export interface Agency {
  admin: Person;
  member: Person;
  /** A second member, to show what a colleague who is not on a record gets. */
  colleague: Person;
}

/** `POST /api-keys` as `who`; fails the test unless the key is made. */
export async function makeKey(t: TestApp, who: SignedIn, scopes: string[] = CRM_SCOPES): Promise<string> {
  const res = await t.http
    .post('/api-keys')
    .auth(who.token, { type: 'bearer' })
    .send({ name: 'crm', scopes });
  if (res.status !== 201) throw new Error(`key not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.key as string;
}

export async function withKey(t: TestApp, who: SignedIn): Promise<Person> {
  return { ...who, key: await makeKey(t, who) };
}

export async function agency(t: TestApp, name = 'Casa Agency'): Promise<Agency> {
  const admin = await t.signUp({ organizationName: name });
  const member = await t.addMember(admin, 'member', 'Mia');
  const colleague = await t.addMember(admin, 'member', 'Cole');
  return {
    admin: await withKey(t, admin),
    member: await withKey(t, member),
    colleague: await withKey(t, colleague),
  };
}

/** `/v1` requests carrying `key` as `Authorization: Bearer`. */
export function api(t: TestApp, key: string) {
  const as = (req: Test) => req.auth(key, { type: 'bearer' });
  return {
    get: (path: string) => as(t.http.get(path)),
    post: (path: string) => as(t.http.post(path)),
    put: (path: string) => as(t.http.put(path)),
    patch: (path: string) => as(t.http.patch(path)),
    delete: (path: string) => as(t.http.delete(path)),
  };
}

export interface LeadInput {
  firstName?: string;
  lastName?: string;
  email?: string;
  phoneNumber?: string;
  crmStatus?: string;
  companyName?: string | null;
  language?: string | null;
  assigneeIds?: string | string[];
  teamIds?: string | string[];
  unassigned?: boolean;
}

let leadCounter = 0;
export const leadBody = (overrides: LeadInput = {}): LeadInput => {
  const n = ++leadCounter;
  return {
    firstName: `First${n}`,
    lastName: `Last${n}`,
    email: `lead${n}@example.test`,
    phoneNumber: `+3460000${String(n).padStart(4, '0')}`,
    crmStatus: 'lead',
    ...overrides,
  };
};

/** `POST /v1/leads` with `key`; returns the created lead (fails the test unless 201). */
export async function createLead(t: TestApp, key: string, overrides: LeadInput = {}): Promise<LeadJson> {
  const res = await api(t, key).post('/v1/leads').send(leadBody(overrides));
  if (res.status !== 201) throw new Error(`lead not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.lead as LeadJson;
}

export interface LeadJson {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string;
  crmStatus: string;
  assigneeIds: string[];
  [field: string]: unknown;
}

export async function createNote(
  t: TestApp,
  key: string,
  leadId: number,
  content = 'Called, wants a viewing',
) {
  const res = await api(t, key).post(`/v1/leads/${leadId}/notes`).send({ content });
  if (res.status !== 201) throw new Error(`note not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; content: string; authorId: string; [field: string]: unknown };
}

export async function createTask(t: TestApp, key: string, body: Record<string, unknown>) {
  const res = await api(t, key)
    .post('/v1/tasks')
    .send({ title: 'Call back', ...body });
  if (res.status !== 201) throw new Error(`task not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; leadId: number; assigneeIds: string[]; [field: string]: unknown };
}

export async function createTag(t: TestApp, who: SignedIn, name: string, color = '#ff8800') {
  const res = await t.http.post('/tags').auth(who.token, { type: 'bearer' }).send({ name, color });
  if (res.status !== 201) throw new Error(`tag not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; name: string; color: string };
}

export async function createTeam(t: TestApp, admin: SignedIn, name: string, memberIds: string[]) {
  const res = await t.http
    .post('/organization/teams')
    .auth(admin.token, { type: 'bearer' })
    .send({ name, memberIds });
  if (res.status !== 201) throw new Error(`team not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; name: string };
}

/** Operator plan switch, run as a request would run it (it also drops the key door's cache). */
export function setPlan(t: TestApp, organizationId: string, active: boolean) {
  return RequestContext.create(t.orm.em, () => t.get(OrganizationsService).setPlan(organizationId, active));
}

/** Direct SQL, to read what the database holds or to make states no route makes. */
export function sql<T = Record<string, unknown>>(
  t: TestApp,
  query: string,
  params: unknown[] = [],
): Promise<T[]> {
  return t.orm.em.getConnection().execute<T[]>(query, params);
}

export async function count(t: TestApp, query: string, params: unknown[] = []): Promise<number> {
  const [row] = await sql<{ n: string }>(t, query, params);
  return Number(row.n);
}

/** 404 NOT_FOUND with the spec's fixed message (`Lead not found.` and friends). */
export function expectNotFound(res: Response, resource: 'Lead' | 'Note' | 'Task'): void {
  expectError(res, 404, 'NOT_FOUND');
  expect(res.body.error.message).toBe(`${resource} not found.`);
}

/** 400 VALIDATION_FAILED whose `details.issues` ({path, message}[]) names every path in `paths`. */
export function expectValidation(res: Response, ...paths: string[]): void {
  expectError(res, 400, 'VALIDATION_FAILED');
  const issues = res.body.error.details?.issues as { path: string; message: string }[];
  expect(issues).toEqual(expect.arrayContaining([{ path: expect.any(String), message: expect.any(String) }]));
  for (const issue of issues) expect(Object.keys(issue).sort()).toEqual(['message', 'path']);
  for (const path of paths) expect(issues.map((i) => i.path)).toContainEqual(expect.stringContaining(path));
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
