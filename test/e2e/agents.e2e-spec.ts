import {
  api,
  asKey,
  asSession,
  expectError,
  expectNotFound,
  expectValidation,
  postSignUp,
  sql,
  TestApp,
  type SignedIn,
  codeOf,
} from '../fixtures';
import { AGENT_FIELDS, agentOf, listingNaming, standaloneAgent, type AgentBody } from '../fixtures/agents';

/** The code of an error in either shape (the listing family's legacy shape, or the envelope). */

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('agent roster', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.stop());
  beforeEach(() => t.resetRows());

  const roster = (who: SignedIn, query = '') => asSession(t.http.get(`/agents${query}`), who);
  const rows = async (who: SignedIn, query = ''): Promise<AgentBody[]> =>
    (await roster(who, query).expect(200)).body.data as AgentBody[];
  const create = (who: SignedIn, body: Record<string, unknown>) =>
    asSession(t.http.post('/organization/agents'), who).send(body);
  const change = (who: SignedIn, id: string, body: Record<string, unknown>) =>
    asSession(t.http.patch(`/organization/agents/${id}`), who).send(body);
  const remove = (who: SignedIn, id: string) => asSession(t.http.delete(`/organization/agents/${id}`), who);
  const leave = (admin: SignedIn, who: SignedIn) =>
    asSession(t.http.delete(`/organization/members/${who.userId}`), admin).expect(204);
  const inviteBack = async (admin: SignedIn, who: SignedIn, firstName: string, lastName: string) => {
    const invitation = await asSession(t.http.post('/organization/invitations'), admin)
      .send({ email: who.email, role: 'member' })
      .expect(201);
    await t.http
      .post('/auth/accept-invitation')
      .send({ token: invitation.body.token, password: 'a brand new password', firstName, lastName })
      .expect(201);
  };

  describe('rows made with the membership', () => {
    it('gives the person who signs up a linked row with every spec field and the legacy spellings', async () => {
      const admin = await postSignUp(t, { firstName: 'Ana', lastName: 'Admin' });
      const res = await roster(admin).expect(200);
      expect(res.body).toEqual({ data: [expect.any(Object)], hasMore: false, total: 1 });
      const [row] = res.body.data as AgentBody[];
      expect(Object.keys(row).sort()).toEqual(AGENT_FIELDS);
      expect(row).toEqual({
        id: expect.any(String),
        clerkUserId: admin.userId,
        isClerkLinked: true,
        firstName: 'Ana',
        lastName: 'Admin',
        first_name: 'Ana',
        last_name: 'Admin',
        avatarUrl: null,
        avatarThumbnailUrl: null,
        image_url: '',
        organizationId: admin.organizationId,
        displayEmail: admin.email,
        phoneNumber: null,
        whatsappNumber: null,
        description: null,
        title: null,
        isActive: true,
        shareContactOnNetwork: false,
        additionalInfo: null,
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      });
    });

    it('gives an invited person a row when they accept', async () => {
      const admin = await t.seed.organization({ firstName: 'Ana', lastName: 'Admin' });
      const invitation = await asSession(t.http.post('/organization/invitations'), admin)
        .send({ email: 'lu.joins@example.test', role: 'member' })
        .expect(201);
      const joined = await t.http
        .post('/auth/accept-invitation')
        .send({
          token: invitation.body.token,
          password: 'member password 1',
          firstName: 'Lu',
          lastName: 'Joins',
        })
        .expect(201);
      const lu = (await rows(admin)).find((row) => row.clerkUserId === joined.body.user.id);
      expect(lu).toMatchObject({
        isClerkLinked: true,
        firstName: 'Lu',
        lastName: 'Joins',
        displayEmail: 'lu.joins@example.test',
        isActive: true,
        organizationId: admin.organizationId,
      });
    });

    it('keeps the row of a person who leaves, inactive, and brings it back with the new names when they return', async () => {
      const admin = await t.seed.organization({ firstName: 'Ana', lastName: 'Admin' });
      const mia = await t.seed.member(admin, 'member', 'Mia');
      const before = await agentOf(t, mia.userId);
      expect(before.is_active).toBe(true);

      await leave(admin, mia);
      expect((await rows(admin)).map((row) => row.clerkUserId)).toEqual([admin.userId]);
      const inactive = await rows(admin, '?active=false');
      expect(inactive).toEqual([
        expect.objectContaining({
          id: before.id,
          clerkUserId: mia.userId,
          isActive: false,
          firstName: 'Mia',
        }),
      ]);

      await inviteBack(admin, mia, 'Mia', 'Back');
      const after = await agentOf(t, mia.userId);
      expect(after).toEqual({ id: before.id, is_active: true, first_name: 'Mia', last_name: 'Back' });
      expect(await rows(admin, '?active=false')).toEqual([]);
    });

    it('names every row of a person after their account when they join another agency', async () => {
      const first = await t.seed.organization({ firstName: 'Ana', lastName: 'Admin' });
      const mia = await t.seed.member(first, 'member', 'Mia');
      await leave(first, mia);
      const second = await t.seed.organization({ firstName: 'Bea', lastName: 'Boss' });
      await inviteBack(second, mia, 'Mia', 'Moved');

      const [old] = await rows(first, '?active=false');
      expect(old).toMatchObject({ clerkUserId: mia.userId, isActive: false, lastName: 'Moved' });
      const [, now] = await rows(second);
      expect(now).toMatchObject({ clerkUserId: mia.userId, isActive: true, lastName: 'Moved' });
      expect(now.id).not.toBe(old.id);
      expect(now.organizationId).toBe(second.organizationId);
    });
  });

  describe('GET /agents', () => {
    const setUp = async () => {
      const admin = await t.seed.organization({ firstName: 'Ana', lastName: 'Admin' });
      const mia = await t.seed.member(admin, 'member', 'Mia');
      const zoe = await standaloneAgent(t, admin, {
        firstName: 'Zoë',
        lastName: 'Núñez',
        displayEmail: 'zoe@costa.example',
      });
      const gone = await standaloneAgent(t, admin, { firstName: 'Old', lastName: 'Timer', isActive: false });
      return { admin, mia, zoe, gone };
    };

    it('lists active rows by last name, first name, id; active=false the inactive ones; active=all both', async () => {
      const { admin, mia, zoe, gone } = await setUp();
      const active = await roster(admin).expect(200);
      expect(active.body.total).toBe(3);
      expect(active.body.hasMore).toBe(false);
      expect((active.body.data as AgentBody[]).map((row) => row.lastName)).toEqual([
        'Admin',
        'Member',
        'Núñez',
      ]);
      expect((active.body.data as AgentBody[])[1].clerkUserId).toBe(mia.userId);
      expect((await rows(admin, '?active=false')).map((row) => row.id)).toEqual([gone.id]);
      const all = await roster(admin, '?active=all').expect(200);
      expect(all.body.total).toBe(4);
      expect((all.body.data as AgentBody[]).map((row) => row.id)).toContain(zoe.id);
      expect((all.body.data as AgentBody[]).map((row) => row.lastName)).toEqual([
        'Admin',
        'Member',
        'Núñez',
        'Timer',
      ]);
    });

    it('matches q on the names and the display email, whatever the case and accents', async () => {
      const { admin, zoe, mia } = await setUp();
      for (const q of ['nunez', 'ZOE', 'zoë núñez', 'costa.example']) {
        expect((await rows(admin, `?q=${encodeURIComponent(q)}`)).map((row) => row.id)).toEqual([zoe.id]);
      }
      expect((await rows(admin, '?q=mia')).map((row) => row.clerkUserId)).toEqual([mia.userId]);
      expect(await rows(admin, '?q=%25')).toEqual([]);
      expect(await rows(admin, '?q=timer')).toEqual([]);
      expect((await rows(admin, '?q=timer&active=all')).map((row) => row.lastName)).toEqual(['Timer']);
    });

    it('pages with offset and limit, the total exact', async () => {
      const { admin } = await setUp();
      const first = await roster(admin, '?active=all&limit=3').expect(200);
      expect(first.body).toMatchObject({ hasMore: true, total: 4 });
      expect(first.body.data).toHaveLength(3);
      const second = await roster(admin, '?active=all&limit=3&offset=3').expect(200);
      expect(second.body).toMatchObject({ hasMore: false, total: 4 });
      expect((second.body.data as AgentBody[]).map((row) => row.lastName)).toEqual(['Timer']);
      const past = await roster(admin, '?active=all&offset=10').expect(200);
      expect(past.body).toEqual({ data: [], hasMore: false, total: 4 });
    });

    it('refuses bad queries with 400 VALIDATION_FAILED', async () => {
      const { admin } = await setUp();
      expectValidation(await roster(admin, '?limit=201'), 'limit');
      expectValidation(await roster(admin, '?limit=0'), 'limit');
      expectValidation(await roster(admin, '?offset=-1'), 'offset');
      expectValidation(await roster(admin, '?active=yes'), 'active');
      expectValidation(await roster(admin, `?q=${'a'.repeat(101)}`), 'q');
      await roster(admin, `?q=${'a'.repeat(100)}&limit=200`).expect(200);
    });

    it('shows nothing of another agency', async () => {
      const { admin } = await setUp();
      const other = await t.seed.organization({ firstName: 'Olga', lastName: 'Other' });
      const theirs = await rows(other, '?active=all');
      expect(theirs.map((row) => row.lastName)).toEqual(['Other']);
      expect((await rows(admin, '?active=all&q=olga')).length).toBe(0);
    });

    it('answers an API key with 401 (a session route)', async () => {
      const { admin } = await setUp();
      const key = await t.seed.apiKey(admin, ['properties:read']);
      const res = await asKey(t.http.get('/agents'), key.key);
      expectError(res, 401, 'UNAUTHENTICATED');
    });

    it('GET /organization/agents gives the same rows', async () => {
      const { admin, mia } = await setUp();
      const same = await asSession(
        t.http.get('/organization/agents?active=all&limit=2&offset=1'),
        mia,
      ).expect(200);
      expect(same.body).toEqual((await roster(admin, '?active=all&limit=2&offset=1').expect(200)).body);
      expectValidation(await asSession(t.http.get('/organization/agents?limit=201'), admin), 'limit');
    });
  });

  describe('GET /properties/agents', () => {
    it('serves the same rows and query to an API key with properties:read', async () => {
      const admin = await t.seed.organization({ firstName: 'Ana', lastName: 'Admin' });
      const mia = await t.seed.member(admin, 'member', 'Mia');
      await standaloneAgent(t, admin, {
        firstName: 'Zoë',
        lastName: 'Núñez',
        avatarUrl: 'https://cdn.example/z.jpg',
      });
      const key = await t.seed.apiKey(mia, ['properties:read']);
      const res = await api(t, key.key).get('/properties/agents?q=nunez').expect(200);
      expect(res.body).toEqual((await roster(admin, '?q=nunez').expect(200)).body);
      expect(res.body.data[0]).toMatchObject({
        first_name: 'Zoë',
        last_name: 'Núñez',
        avatarUrl: 'https://cdn.example/z.jpg',
        image_url: 'https://cdn.example/z.jpg',
        isClerkLinked: false,
        clerkUserId: null,
      });
      const all = await api(t, key.key).get('/properties/agents').expect(200);
      expect(all.body.total).toBe(3);
    });

    it('refuses a key without properties:read (403), a session (401) and a bad query (400)', async () => {
      const admin = await t.seed.organization();
      const crm = await t.seed.apiKey(admin, ['crm:read']);
      const refused = await api(t, crm.key).get('/properties/agents');
      expect(refused.status).toBe(403);
      expect(codeOf(refused)).toBe('API_KEY_SCOPE_MISSING');
      const session = await roster(admin).expect(200);
      expect(session.body.total).toBe(1);
      expect((await asSession(t.http.get('/properties/agents'), admin)).status).toBe(401);
      const key = await t.seed.apiKey(admin, ['properties:read']);
      const bad = await api(t, key.key).get('/properties/agents?limit=201');
      expect(bad.status).toBe(400);
      expect(codeOf(bad)).toBe('VALIDATION_FAILED');
      const badActive = await api(t, key.key).get('/properties/agents?active=maybe');
      expect(badActive.status).toBe(400);
      expect(codeOf(badActive)).toBe('VALIDATION_FAILED');
    });
  });

  describe('POST /organization/agents', () => {
    it('lets an admin add a standalone agent', async () => {
      const admin = await t.seed.organization();
      const res = await create(admin, {
        firstName: 'Sam',
        lastName: 'Solo',
        displayEmail: 'sam@solo.example',
        phoneNumber: '+34 600 000 001',
        whatsappNumber: '+34 600 000 002',
        description: 'Coastal villas.',
        title: 'Senior agent',
        avatarUrl: 'https://cdn.example/sam.jpg',
        avatarThumbnailUrl: 'https://cdn.example/sam-small.jpg',
        shareContactOnNetwork: true,
        additionalInfo: { languages: ['en', 'es'] },
      }).expect(201);
      expect(Object.keys(res.body).sort()).toEqual(AGENT_FIELDS);
      expect(res.body).toMatchObject({
        clerkUserId: null,
        isClerkLinked: false,
        firstName: 'Sam',
        first_name: 'Sam',
        last_name: 'Solo',
        image_url: 'https://cdn.example/sam.jpg',
        organizationId: admin.organizationId,
        isActive: true,
        shareContactOnNetwork: true,
        additionalInfo: { languages: ['en', 'es'] },
      });
      expect((await rows(admin, '?q=solo')).map((row) => row.id)).toEqual([res.body.id]);
      const minimal = await create(admin, { firstName: 'Just' }).expect(201);
      expect(minimal.body).toMatchObject({ lastName: null, last_name: null, image_url: '', isActive: true });
    });

    it('refuses a member (403 ORG_ADMIN_REQUIRED)', async () => {
      const admin = await t.seed.organization();
      const mia = await t.seed.member(admin);
      expectError(await create(mia, { firstName: 'Sam' }), 403, 'ORG_ADMIN_REQUIRED');
    });

    it('refuses bad fields with 400 VALIDATION_FAILED', async () => {
      const admin = await t.seed.organization();
      expectValidation(await create(admin, {}), 'firstName');
      expectValidation(await create(admin, { firstName: '' }), 'firstName');
      expectValidation(await create(admin, { firstName: 'a'.repeat(101) }), 'firstName');
      expectValidation(await create(admin, { firstName: 'Sam', title: 'a'.repeat(101) }), 'title');
      expectValidation(
        await create(admin, { firstName: 'Sam', description: 'a'.repeat(2001) }),
        'description',
      );
      expectValidation(
        await create(admin, { firstName: 'Sam', avatarUrl: 'http://cdn.example/a.jpg' }),
        'avatarUrl',
      );
      expectValidation(
        await create(admin, { firstName: 'Sam', avatarThumbnailUrl: 'nope' }),
        'avatarThumbnailUrl',
      );
      expectValidation(
        await create(admin, { firstName: 'Sam', displayEmail: 'not-an-email' }),
        'displayEmail',
      );
      expectValidation(await create(admin, { firstName: 'Sam', additionalInfo: [1, 2] }), 'additionalInfo');
      expectValidation(
        await create(admin, { firstName: 'Sam', shareContactOnNetwork: null }),
        'shareContactOnNetwork',
      );
      expectValidation(await create(admin, { firstName: 'Sam', isActive: 'yes' }), 'isActive');
      await create(admin, { firstName: 'Sam', description: 'a'.repeat(2000), title: 'a'.repeat(100) }).expect(
        201,
      );
      expect(await sql(t, 'select 1 from agents where clerk_user_id is null')).toHaveLength(1);
    });
  });

  describe('PATCH /organization/agents/{id}', () => {
    const setUp = async () => {
      const admin = await t.seed.organization({ firstName: 'Ana', lastName: 'Admin' });
      const mia = await t.seed.member(admin, 'member', 'Mia');
      const cole = await t.seed.member(admin, 'member', 'Cole');
      const sam = await standaloneAgent(t, admin);
      return {
        admin,
        mia,
        cole,
        sam,
        miaRow: await agentOf(t, mia.userId),
        coleRow: await agentOf(t, cole.userId),
      };
    };

    it('lets an admin change any field of a standalone row, null clearing', async () => {
      const { admin, sam } = await setUp();
      await change(admin, sam.id, { title: 'Lettings', phoneNumber: '+34 1' }).expect(200);
      const res = await change(admin, sam.id, {
        firstName: 'Samuel',
        lastName: null,
        phoneNumber: null,
        isActive: false,
        additionalInfo: { office: 'Marbella' },
      }).expect(200);
      expect(res.body).toMatchObject({
        id: sam.id,
        firstName: 'Samuel',
        first_name: 'Samuel',
        lastName: null,
        title: 'Lettings',
        phoneNumber: null,
        isActive: false,
        additionalInfo: { office: 'Marbella' },
      });
      expect((await rows(admin, '?active=false')).map((row) => row.id)).toEqual([sam.id]);
    });

    it("lets an admin change a member's public fields but not the names or isActive their account sets", async () => {
      const { admin, miaRow } = await setUp();
      const res = await change(admin, miaRow.id, {
        title: 'Team lead',
        shareContactOnNetwork: true,
        avatarUrl: 'https://cdn.example/mia.jpg',
        firstName: 'Mia',
      }).expect(200);
      expect(res.body).toMatchObject({
        title: 'Team lead',
        shareContactOnNetwork: true,
        image_url: 'https://cdn.example/mia.jpg',
      });
      expectValidation(await change(admin, miaRow.id, { firstName: 'Other' }), 'firstName');
      expectValidation(await change(admin, miaRow.id, { lastName: null }), 'lastName');
      expectValidation(await change(admin, miaRow.id, { isActive: false }), 'isActive');
    });

    it("lets a member change their own row's public fields and shareContactOnNetwork", async () => {
      const { mia, miaRow } = await setUp();
      const res = await change(mia, miaRow.id, {
        displayEmail: 'mia@public.example',
        phoneNumber: '+34 600 111 222',
        whatsappNumber: '+34 600 111 223',
        description: 'Sea views.',
        title: 'Agent',
        avatarUrl: 'https://cdn.example/mia.jpg',
        avatarThumbnailUrl: null,
        shareContactOnNetwork: true,
      }).expect(200);
      expect(res.body).toMatchObject({
        displayEmail: 'mia@public.example',
        phoneNumber: '+34 600 111 222',
        shareContactOnNetwork: true,
        firstName: 'Mia',
        isActive: true,
      });
    });

    it("refuses a member another row (403 FORBIDDEN) or their own row's admin fields", async () => {
      const { mia, coleRow, sam, miaRow } = await setUp();
      expectError(await change(mia, coleRow.id, { title: 'Mine now' }), 403, 'FORBIDDEN');
      expectError(await change(mia, sam.id, { title: 'Mine now' }), 403, 'FORBIDDEN');
      expectError(await change(mia, miaRow.id, { isActive: false }), 403, 'FORBIDDEN');
      expectError(await change(mia, miaRow.id, { additionalInfo: {} }), 403, 'FORBIDDEN');
      expectError(await change(mia, miaRow.id, { firstName: 'Mimi' }), 403, 'FORBIDDEN');
      expect((await agentOf(t, mia.userId)).first_name).toBe('Mia');
    });

    it("answers 404 for another agency's agent and 400 for a bad id or field", async () => {
      const { admin, sam } = await setUp();
      const other = await t.seed.organization();
      expectNotFound(await change(other, sam.id, { title: 'x' }), 'Agent');
      expectNotFound(await change(admin, '0190f0c0-0000-7000-8000-000000000000', { title: 'x' }), 'Agent');
      expectValidation(await change(admin, 'nope', { title: 'x' }), 'id');
      expectValidation(await change(admin, sam.id, { firstName: null }), 'firstName');
      expectValidation(await change(admin, sam.id, { avatarUrl: 'ftp://x.example/a.png' }), 'avatarUrl');
    });
  });

  describe('DELETE /organization/agents/{id}', () => {
    it('lets an admin delete a standalone agent (204), which is then gone', async () => {
      const admin = await t.seed.organization();
      const sam = await standaloneAgent(t, admin);
      await remove(admin, sam.id).expect(204);
      expectNotFound(await change(admin, sam.id, { title: 'x' }), 'Agent');
      expectNotFound(await remove(admin, sam.id), 'Agent');
    });

    it('refuses a member (403 ORG_ADMIN_REQUIRED)', async () => {
      const admin = await t.seed.organization();
      const mia = await t.seed.member(admin);
      const sam = await standaloneAgent(t, admin);
      expectError(await remove(mia, sam.id), 403, 'ORG_ADMIN_REQUIRED');
    });

    it("refuses a member's row (409 CONFLICT)", async () => {
      const admin = await t.seed.organization();
      const mia = await t.seed.member(admin);
      const row = await agentOf(t, mia.userId);
      expectError(await remove(admin, row.id), 409, 'CONFLICT');
      await leave(admin, mia);
      expectError(await remove(admin, row.id), 409, 'CONFLICT');
    });

    it('refuses while a live listing names the agent (409); a deleted listing lets go of it', async () => {
      const admin = await t.seed.organization();
      const sam = await standaloneAgent(t, admin);
      const live = await listingNaming(t, admin.organizationId, sam.id);
      const deleted = await listingNaming(t, admin.organizationId, sam.id, { deleted: true });
      expectError(await remove(admin, sam.id), 409, 'CONFLICT');
      // nothing changed by the refused delete
      expect(await sql(t, 'select id from listings where agent_id = ? order by id', [sam.id])).toHaveLength(
        2,
      );

      await sql(t, 'update listings set deleted_at = now() where id = ?', [live]);
      await remove(admin, sam.id).expect(204);
      const after = await sql<{ id: string; agent_id: string | null }>(
        t,
        'select id, agent_id from listings where id in (?, ?)',
        [live, deleted],
      );
      expect(after.map((row) => row.agent_id)).toEqual([null, null]);
    });

    it("answers 404 for another agency's agent and 400 for a bad id", async () => {
      const admin = await t.seed.organization();
      const sam = await standaloneAgent(t, admin);
      const other = await t.seed.organization();
      expectNotFound(await remove(other, sam.id), 'Agent');
      expectValidation(await remove(admin, 'nope'), 'id');
      expect(await sql(t, 'select 1 from agents where id = ?', [sam.id])).toHaveLength(1);
    });
  });
});
