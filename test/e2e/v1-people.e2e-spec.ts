import { asKey, asSession, expectError, SignedIn, sql, TestApp } from '../fixtures';

const DAY = 24 * 60 * 60 * 1000;

/** `GET /v1/me`, `/v1/members`, `/v1/teams`, `/v1/tags` (spec: Identity and people). */
describe('identity and people on /v1', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.stop());
  beforeEach(() => t.resetRows());

  const get = (path: string, secret: string) => asKey(t.http.get(path), secret);
  const crmKey = async (who: SignedIn) => (await t.seed.apiKey(who, { scopes: ['crm:read'] })).key;
  const createTeam = (admin: SignedIn, name: string, memberIds: string[] = [], color?: string) =>
    t.seed.team(admin, name, memberIds, color);
  const createTag = (who: SignedIn, name: string, color = '#1E88E5') => t.seed.tag(who, name, color);

  describe('GET /v1/me', () => {
    it('answers the person, the agency, the role, the plan and the key', async () => {
      const admin = await t.seed.organization({ name: 'Casa Norte', firstName: 'Ana', lastName: 'Reyes' });
      const now = new Date('2026-11-20T10:00:00.000Z');
      t.clock.set(now);
      const created = await t.seed.apiKey(admin, { name: 'Sync', scopes: ['crm:read'], expiresInDays: 30 });
      const res = await get('/v1/me', created.key);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        user: { id: admin.userId, name: 'Ana Reyes', email: admin.email.toLowerCase() },
        organization: { id: admin.organizationId, name: 'Casa Norte' },
        role: 'admin',
        entitled: true,
        key: {
          id: created.id,
          name: 'Sync',
          prefixHint: created.prefixHint,
          scopes: ['crm:read'],
          expiresAt: new Date(now.getTime() + 30 * DAY).toISOString(),
        },
      });
    });

    it('needs no scope and lists the reserved agents:read of a key made without scopes', async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin, 'member', 'Mia');
      const created = await t.seed.apiKey(member);
      const res = await get('/v1/me', created.key).expect(200);
      expect(res.body).toMatchObject({
        user: { id: member.userId, name: 'Mia Member' },
        organization: { id: admin.organizationId },
        role: 'member',
        key: { scopes: ['properties:read', 'sources:read', 'agents:read'], expiresAt: null },
      });
    });

    it('says entitled false while the agency has no active plan', async () => {
      const admin = await t.seed.organization();
      const created = await t.seed.apiKey(admin);
      expect((await get('/v1/me', created.key).expect(200)).body.entitled).toBe(true);
      await t.seed.plan(admin.organizationId, false);
      expect((await get('/v1/me', created.key).expect(200)).body.entitled).toBe(false);
      await t.seed.plan(admin.organizationId, true);
      expect((await get('/v1/me', created.key).expect(200)).body.entitled).toBe(true);
    });

    it('shows the key’s current name and scopes after an edit', async () => {
      const admin = await t.seed.organization();
      const created = await t.seed.apiKey(admin, { scopes: ['crm:read', 'crm:write'] });
      await get('/v1/me', created.key).expect(200);
      await asSession(t.http.patch(`/api-keys/${created.id}`), admin)
        .send({ name: 'Renamed', scopes: ['crm:read'] })
        .expect(200);
      expect((await get('/v1/me', created.key).expect(200)).body.key).toMatchObject({
        name: 'Renamed',
        scopes: ['crm:read'],
      });
    });
  });

  describe('GET /v1/members', () => {
    it('lists the agency’s members with their roles', async () => {
      const admin = await t.seed.organization({ firstName: 'Ana', lastName: 'Admin' });
      const member = await t.seed.member(admin, 'member', 'Mia');
      const res = await get('/v1/members', await crmKey(member));
      expect(res.status).toBe(200);
      expect(res.body.hasMore).toBe(false);
      expect(res.body.data).toHaveLength(2);
      expect(res.body.data).toEqual(
        expect.arrayContaining([
          {
            userId: admin.userId,
            firstName: 'Ana',
            lastName: 'Admin',
            email: admin.email.toLowerCase(),
            imageUrl: null,
            role: 'org:admin',
          },
          {
            userId: member.userId,
            firstName: 'Mia',
            lastName: 'Member',
            email: member.email.toLowerCase(),
            imageUrl: null,
            role: 'org:member',
          },
        ]),
      );
    });

    it('needs crm:read: 403 API_KEY_SCOPE_MISSING with details.missing', async () => {
      const admin = await t.seed.organization();
      const created = await t.seed.apiKey(admin, { scopes: ['properties:read', 'documents:read'] });
      expectError(await get('/v1/members', created.key), 403, 'API_KEY_SCOPE_MISSING', {
        missing: ['crm:read'],
      });
    });

    it('caps the list at 100 members and says hasMore', async () => {
      const admin = await t.seed.organization();
      const seedMembers = (from: number, to: number) =>
        sql(
          t,
          `with people as (
             insert into users (id, email, password_hash, first_name, last_name, created_at, updated_at)
             select gen_random_uuid(), 'seeded' || n || '@example.test', 'x', 'Seeded', lpad(n::text, 3, '0'), now(), now()
               from generate_series(?::int, ?::int) as n
             returning id)
           insert into memberships (id, organization_id, user_id, role, created_at, updated_at)
           select gen_random_uuid(), ?, id, 'member', now(), now() from people`,
          [from, to, admin.organizationId],
        );
      await seedMembers(1, 99);
      const key = await crmKey(admin);
      const full = await get('/v1/members', key).expect(200);
      expect(full.body.data).toHaveLength(100);
      expect(full.body.hasMore).toBe(false);

      await seedMembers(100, 100);
      const capped = await get('/v1/members', key).expect(200);
      expect(capped.body.data).toHaveLength(100);
      expect(capped.body.hasMore).toBe(true);
      expect(new Set(capped.body.data.map((m: { userId: string }) => m.userId)).size).toBe(100);
    });

    it('leaves out people who left and other agencies’ members', async () => {
      const admin = await t.seed.organization();
      const leaving = await t.seed.member(admin);
      const other = await t.seed.organization();
      const otherMember = await t.seed.member(other);
      await asSession(t.http.delete(`/organization/members/${leaving.userId}`), admin).expect(204);
      const res = await get('/v1/members', await crmKey(admin)).expect(200);
      expect(res.body.data.map((m: { userId: string }) => m.userId)).toEqual([admin.userId]);
      const theirs = await get('/v1/members', await crmKey(other)).expect(200);
      expect(theirs.body.data.map((m: { userId: string }) => m.userId).sort()).toEqual(
        [other.userId, otherMember.userId].sort(),
      );
    });
  });

  describe('GET /v1/teams', () => {
    it('lists live teams as {id, name, color, memberIds, memberCount}, archived ones omitted', async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin);
      const sales = await createTeam(admin, 'Sales', [admin.userId, member.userId], '#1E88E5');
      const lettings = await createTeam(admin, 'Lettings');
      const archived = await createTeam(admin, 'Old team', [member.userId]);
      await asSession(t.http.delete(`/organization/teams/${archived.id}`), admin).expect(200);

      const res = await get('/v1/teams', await crmKey(member)).expect(200);
      expect(res.body.hasMore).toBe(false);
      expect(res.body.data).toHaveLength(2);
      expect(res.body.data).toEqual(
        expect.arrayContaining([
          {
            id: sales.id,
            name: 'Sales',
            color: '#1E88E5',
            memberIds: [admin.userId, member.userId],
            memberCount: 2,
          },
          { id: lettings.id, name: 'Lettings', color: null, memberIds: [], memberCount: 0 },
        ]),
      );
    });

    it('needs crm:read and never shows another agency’s teams', async () => {
      const admin = await t.seed.organization();
      const other = await t.seed.organization();
      await createTeam(other, 'Their team');
      const noCrm = await t.seed.apiKey(admin, { scopes: ['properties:read'] });
      expectError(await get('/v1/teams', noCrm.key), 403, 'API_KEY_SCOPE_MISSING', { missing: ['crm:read'] });
      expect((await get('/v1/teams', await crmKey(admin)).expect(200)).body).toEqual({
        data: [],
        hasMore: false,
      });
    });

    it('drops a person who leaves from memberIds', async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin);
      const team = await createTeam(admin, 'Sales', [admin.userId, member.userId]);
      await asSession(t.http.delete(`/organization/members/${member.userId}`), admin).expect(204);
      const res = await get('/v1/teams', await crmKey(admin)).expect(200);
      expect(res.body.data).toEqual([
        { id: team.id, name: 'Sales', color: null, memberIds: [admin.userId], memberCount: 1 },
      ]);
    });
  });

  describe('GET /v1/tags', () => {
    it('lists the whole set of live tags, archived ones omitted', async () => {
      const admin = await t.seed.organization();
      const member = await t.seed.member(admin);
      const hot = await createTag(admin, 'Hot', '#FF0000');
      const investor = await createTag(member, 'Investor', '#00AA00');
      const archived = await createTag(admin, 'Old');
      await asSession(t.http.delete(`/tags/${archived.id}`), admin).expect(200);

      const res = await get('/v1/tags', await crmKey(member)).expect(200);
      expect(res.body.hasMore).toBe(false);
      expect(res.body.data).toHaveLength(2);
      expect(res.body.data).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ id: hot.id, name: 'Hot', color: '#FF0000', leadCount: 0 }),
          expect.objectContaining({ id: investor.id, name: 'Investor', color: '#00AA00', leadCount: 0 }),
        ]),
      );
    });

    it('counts the leads carrying each tag', async () => {
      const admin = await t.seed.organization();
      const key = (await t.seed.apiKey(admin, { scopes: ['crm:read', 'crm:write'] })).key;
      const hot = await createTag(admin, 'Hot');
      const cold = await createTag(admin, 'Cold');
      for (const n of [1, 2]) {
        const lead = await asKey(t.http.post('/v1/leads'), key)
          .send({
            firstName: `Lead${n}`,
            lastName: 'Buyer',
            email: `tagged${n}@example.test`,
            phoneNumber: `+3460000000${n}`,
            crmStatus: 'lead',
          })
          .expect(201);
        await asKey(t.http.put(`/v1/leads/${lead.body.lead.id}/tags`), key)
          .send({ tagIds: [hot.id] })
          .expect(200);
      }
      const res = await get('/v1/tags', key).expect(200);
      const countOf = Object.fromEntries(
        res.body.data.map((tag: { id: string; leadCount: number }) => [tag.id, tag.leadCount]),
      );
      expect(countOf).toEqual({ [hot.id]: 2, [cold.id]: 0 });
    });

    it('needs crm:read and never shows another agency’s tags', async () => {
      const admin = await t.seed.organization();
      const other = await t.seed.organization();
      await createTag(other, 'Theirs');
      const noCrm = await t.seed.apiKey(admin, { scopes: ['sources:read'] });
      expectError(await get('/v1/tags', noCrm.key), 403, 'API_KEY_SCOPE_MISSING', { missing: ['crm:read'] });
      expect((await get('/v1/tags', await crmKey(admin)).expect(200)).body).toEqual({
        data: [],
        hasMore: false,
      });
    });
  });

  it('names each route’s scopes in x-required-scopes of the machine-readable reference', async () => {
    const res = await t.http.get('/v1/openapi.json').expect(200);
    const scopesOf = (path: string) => res.body.paths[path].get['x-required-scopes'];
    expect(scopesOf('/v1/me')).toEqual([]);
    for (const path of ['/v1/members', '/v1/teams', '/v1/tags']) expect(scopesOf(path)).toEqual(['crm:read']);
  });

  it('keeps agencies apart: a key never reaches another agency’s key or people', async () => {
    const admin = await t.seed.organization();
    const other = await t.seed.organization();
    const theirs = await t.seed.apiKey(other);
    const res = await asSession(t.http.patch(`/api-keys/${theirs.id}`), admin).send({ name: 'Mine' });
    expectError(res, 404, 'NOT_FOUND');
    const me = await get('/v1/me', (await t.seed.apiKey(admin)).key).expect(200);
    expect(me.body.organization.id).toBe(admin.organizationId);
    expect(me.body.organization.id).not.toBe(other.organizationId);
  });
});
