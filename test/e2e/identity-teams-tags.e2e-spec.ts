import { HOUR } from '@app/platform';
import { expectError, expectValidationExactly, SignedIn, TestApp } from '../fixtures';

const AT = new Date('2026-11-23T10:00:00.000Z');
const UNKNOWN_ID = '0190b3c4-1111-7222-8333-444455556666';
const HEX = /^#[0-9A-Fa-f]{6}$/;

interface Team {
  id: string;
  name: string;
  color: string | null;
  memberIds: string[];
  memberCount: number;
}

interface Tag {
  id: string;
  name: string;
  color: string;
  leadCount: number;
  createdBy: string;
  archivedAt: string | null;
  assigneeIds: string[];
  teamIds: string[];
  createdAt: string;
  updatedAt: string;
}

describe('identity: teams and tags', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.stop());
  beforeEach(() => t.resetRows());

  describe('teams', () => {
    const listTeams = (by: SignedIn) => t.http.get('/organization/teams').auth(by.token, { type: 'bearer' });
    const createTeam = (by: SignedIn, body: object) =>
      t.http.post('/organization/teams').auth(by.token, { type: 'bearer' }).send(body);
    const changeTeam = (by: SignedIn, id: string, body: object) =>
      t.http.patch(`/organization/teams/${id}`).auth(by.token, { type: 'bearer' }).send(body);
    const archiveTeam = (by: SignedIn, id: string) =>
      t.http.delete(`/organization/teams/${id}`).auth(by.token, { type: 'bearer' });
    const teamsOf = async (by: SignedIn): Promise<Team[]> => (await listTeams(by).expect(200)).body.data;

    it('lets an admin create a team with members and a color, and lists it', async () => {
      const admin = await t.seed.organization();
      const mia = await t.seed.member(admin, 'member', 'Mia');
      const res = await createTeam(admin, {
        name: 'Sales',
        color: '#1E88E5',
        memberIds: [mia.userId, admin.userId],
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        id: expect.any(String),
        name: 'Sales',
        color: '#1E88E5',
        memberIds: [mia.userId, admin.userId],
        memberCount: 2,
      });

      const list = await listTeams(admin);
      expect(list.status).toBe(200);
      expect(list.body.hasMore).toBe(false);
      expect(list.body.data).toEqual([res.body]);
    });

    it('creates a team with only a name: no color, no members', async () => {
      const admin = await t.seed.organization();
      const res = await createTeam(admin, { name: 'Lettings' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ name: 'Lettings', color: null, memberIds: [], memberCount: 0 });
    });

    it('counts a person listed twice once', async () => {
      const admin = await t.seed.organization();
      const mia = await t.seed.member(admin);
      const res = await createTeam(admin, { name: 'Sales', memberIds: [mia.userId, mia.userId] });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ memberIds: [mia.userId], memberCount: 1 });
    });

    it('renames a team and changes its members and color', async () => {
      const admin = await t.seed.organization();
      const mia = await t.seed.member(admin, 'member', 'Mia');
      const leo = await t.seed.member(admin, 'member', 'Leo');
      const team = (
        await createTeam(admin, { name: 'Sales', color: '#1E88E5', memberIds: [mia.userId] }).expect(201)
      ).body as Team;

      const renamed = await changeTeam(admin, team.id, { name: 'Sales North' });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({
        id: team.id,
        name: 'Sales North',
        color: '#1E88E5',
        memberIds: [mia.userId],
        memberCount: 1,
      });

      const moved = await changeTeam(admin, team.id, { memberIds: [leo.userId, admin.userId], color: null });
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({
        name: 'Sales North',
        color: null,
        memberIds: [leo.userId, admin.userId],
        memberCount: 2,
      });

      const emptied = await changeTeam(admin, team.id, { memberIds: [] });
      expect(emptied.body).toMatchObject({ memberIds: [], memberCount: 0 });

      expect(await teamsOf(admin)).toEqual([emptied.body]);
    });

    it('archives a team: answered with archivedAt, left out of the list, no longer changeable', async () => {
      t.clock.set(AT);
      const admin = await t.seed.organization();
      const sales = (await createTeam(admin, { name: 'Sales' }).expect(201)).body as Team;
      const lettings = (await createTeam(admin, { name: 'Lettings' }).expect(201)).body as Team;
      t.clock.advance(HOUR);

      const res = await archiveTeam(admin, sales.id);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: sales.id,
        name: 'Sales',
        archivedAt: new Date(AT.getTime() + HOUR).toISOString(),
      });

      expect((await teamsOf(admin)).map((team) => team.id)).toEqual([lettings.id]);
      expectError(await changeTeam(admin, sales.id, { name: 'Back' }), 404, 'NOT_FOUND');
      expectError(await archiveTeam(admin, sales.id), 404, 'NOT_FOUND');
    });

    it('lets a member list teams but refuses their writes with 403 ORG_ADMIN_REQUIRED', async () => {
      const admin = await t.seed.organization();
      const mia = await t.seed.member(admin);
      const team = (await createTeam(admin, { name: 'Sales', memberIds: [mia.userId] }).expect(201))
        .body as Team;

      const list = await listTeams(mia);
      expect(list.status).toBe(200);
      expect(list.body).toEqual({ data: [team], hasMore: false });

      expectError(await createTeam(mia, { name: 'Mine' }), 403, 'ORG_ADMIN_REQUIRED');
      expectError(await changeTeam(mia, team.id, { name: 'Renamed' }), 403, 'ORG_ADMIN_REQUIRED');
      expectError(await archiveTeam(mia, team.id), 403, 'ORG_ADMIN_REQUIRED');
      expect(await teamsOf(admin)).toEqual([team]);
    });

    it('refuses memberIds that are not members of the agency with 400 VALIDATION_FAILED naming each', async () => {
      const admin = await t.seed.organization();
      const mia = await t.seed.member(admin);
      const other = await t.seed.organization();
      const stranger = await t.seed.member(other);

      const res = await createTeam(admin, {
        name: 'Sales',
        memberIds: [mia.userId, stranger.userId, UNKNOWN_ID],
      });
      expectValidationExactly(res, ['memberIds.1', 'memberIds.2']);
      expectValidationExactly(await createTeam(admin, { name: 'Sales', memberIds: [other.userId] }), [
        'memberIds.0',
      ]);
      expect(await teamsOf(admin)).toEqual([]);

      const team = (await createTeam(admin, { name: 'Sales', memberIds: [mia.userId] }).expect(201))
        .body as Team;
      expectValidationExactly(await changeTeam(admin, team.id, { memberIds: [stranger.userId] }), [
        'memberIds.0',
      ]);
      expect((await teamsOf(admin))[0].memberIds).toEqual([mia.userId]);
    });

    it('takes member ids in upper case and answers them as the member list does', async () => {
      const admin = await t.seed.organization();
      const mia = await t.seed.member(admin);
      const res = await createTeam(admin, { name: 'Sales', memberIds: [mia.userId.toUpperCase()] });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ memberIds: [mia.userId], memberCount: 1 });
      const changed = await changeTeam(admin, res.body.id, {
        memberIds: [admin.userId.toUpperCase(), admin.userId],
      });
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({ memberIds: [admin.userId], memberCount: 1 });
    });

    it('refuses a person who has left the agency as a team member', async () => {
      const admin = await t.seed.organization();
      const mia = await t.seed.member(admin);
      await t.http
        .delete(`/organization/members/${mia.userId}`)
        .auth(admin.token, { type: 'bearer' })
        .expect(204);
      expectValidationExactly(await createTeam(admin, { name: 'Sales', memberIds: [mia.userId] }), [
        'memberIds.0',
      ]);
    });

    it('refuses malformed fields with 400 VALIDATION_FAILED', async () => {
      const admin = await t.seed.organization();
      expectValidationExactly(await createTeam(admin, {}), ['name']);
      expectValidationExactly(await createTeam(admin, { name: '' }), ['name']);
      expectValidationExactly(await createTeam(admin, { name: 'x'.repeat(81) }), ['name']);
      expectValidationExactly(await createTeam(admin, { name: 'Sales', color: 'blue' }), ['color']);
      expectValidationExactly(await createTeam(admin, { name: 'Sales', color: '#12345' }), ['color']);
      expectValidationExactly(await createTeam(admin, { name: 'Sales', memberIds: ['not-a-uuid'] }), [
        'memberIds',
      ]);
      expectValidationExactly(await createTeam(admin, { name: 'Sales', memberIds: 'not-an-array' }), [
        'memberIds',
      ]);
      const team = (await createTeam(admin, { name: 'Sales' }).expect(201)).body as Team;
      expectValidationExactly(await changeTeam(admin, team.id, { color: 'red' }), ['color']);
      expectValidationExactly(await changeTeam(admin, team.id, { name: '' }), ['name']);
      expectValidationExactly(await changeTeam(admin, team.id, { name: null }), ['name']);
      expect(await teamsOf(admin)).toEqual([team]);
    });

    it("answers 404 NOT_FOUND for another agency's team and an unknown id, and leaves the team be", async () => {
      const admin = await t.seed.organization();
      const other = await t.seed.organization();
      const theirs = (await createTeam(other, { name: 'Theirs' }).expect(201)).body as Team;

      expectError(await changeTeam(admin, theirs.id, { name: 'Mine now' }), 404, 'NOT_FOUND');
      expectError(await archiveTeam(admin, theirs.id), 404, 'NOT_FOUND');
      expectError(await changeTeam(admin, UNKNOWN_ID, { name: 'Ghost' }), 404, 'NOT_FOUND');
      expectError(await archiveTeam(admin, UNKNOWN_ID), 404, 'NOT_FOUND');
      expect(await teamsOf(admin)).toEqual([]);
      expect(await teamsOf(other)).toEqual([theirs]);
    });

    it('refuses a non-uuid team id with 400 VALIDATION_FAILED naming teamId', async () => {
      const admin = await t.seed.organization();
      expectValidationExactly(await changeTeam(admin, 'sales', { name: 'x' }), ['teamId']);
      expectValidationExactly(await archiveTeam(admin, '42'), ['teamId']);
    });
  });

  describe('tags', () => {
    const listTags = (by: SignedIn, query = '') =>
      t.http.get(`/tags${query}`).auth(by.token, { type: 'bearer' });
    const createTag = (by: SignedIn, body: object) =>
      t.http.post('/tags').auth(by.token, { type: 'bearer' }).send(body);
    const changeTag = (by: SignedIn, id: string, body: object) =>
      t.http.patch(`/tags/${id}`).auth(by.token, { type: 'bearer' }).send(body);
    const archiveTag = (by: SignedIn, id: string) =>
      t.http.delete(`/tags/${id}`).auth(by.token, { type: 'bearer' });
    const tagsOf = async (by: SignedIn, query = ''): Promise<Tag[]> =>
      (await listTags(by, query).expect(200)).body.data;

    it('lets any member create a tag and answers the full Tag row', async () => {
      t.clock.set(AT);
      const admin = await t.seed.organization();
      const mia = await t.seed.member(admin);
      const res = await createTag(mia, { name: 'Hot buyer', color: '#FF5722' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        name: 'Hot buyer',
        color: '#FF5722',
        leadCount: 0,
        createdBy: mia.userId,
        archivedAt: null,
        assigneeIds: [],
        teamIds: [],
        createdAt: AT.toISOString(),
        updatedAt: AT.toISOString(),
      });

      // everyone in the agency sees it
      for (const who of [admin, mia]) {
        const list = await listTags(who);
        expect(list.status).toBe(200);
        expect(list.body).toEqual({ data: [res.body], hasMore: false });
      }
    });

    it('gives a tag created without a color a hex color', async () => {
      const admin = await t.seed.organization();
      const res = await createTag(admin, { name: 'VIP' });
      expect(res.status).toBe(201);
      expect(res.body.color).toMatch(HEX);
    });

    it('lets the creator rename and recolor their tag', async () => {
      t.clock.set(AT);
      const admin = await t.seed.organization();
      const mia = await t.seed.member(admin);
      const tag = (await createTag(mia, { name: 'Hot', color: '#FF5722' }).expect(201)).body as Tag;
      t.clock.advance(HOUR);
      const res = await changeTag(mia, tag.id, { name: 'Very hot', color: '#D84315' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...tag,
        name: 'Very hot',
        color: '#D84315',
        updatedAt: new Date(AT.getTime() + HOUR).toISOString(),
      });
      expect(await tagsOf(admin)).toEqual([res.body]);
    });

    it("lets an admin rename and archive a member's tag", async () => {
      const admin = await t.seed.organization();
      const mia = await t.seed.member(admin);
      const tag = (await createTag(mia, { name: 'Hot' }).expect(201)).body as Tag;
      const renamed = await changeTag(admin, tag.id, { name: 'Warm' });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({ id: tag.id, name: 'Warm', createdBy: mia.userId });
      const archived = await archiveTag(admin, tag.id);
      expect(archived.status).toBe(200);
      expect(archived.body).toMatchObject({ id: tag.id, archivedAt: expect.any(String) });
    });

    it("refuses a member on another person's tag with 403 FORBIDDEN and changes nothing", async () => {
      const admin = await t.seed.organization();
      const mia = await t.seed.member(admin, 'member', 'Mia');
      const leo = await t.seed.member(admin, 'member', 'Leo');
      const miaTag = (await createTag(mia, { name: 'Mia tag' }).expect(201)).body as Tag;
      const adminTag = (await createTag(admin, { name: 'Admin tag' }).expect(201)).body as Tag;

      expectError(await changeTag(leo, miaTag.id, { name: 'Mine' }), 403, 'FORBIDDEN');
      expectError(await archiveTag(leo, miaTag.id), 403, 'FORBIDDEN');
      expectError(await changeTag(mia, adminTag.id, { color: '#000000' }), 403, 'FORBIDDEN');
      expectError(await archiveTag(mia, adminTag.id), 403, 'FORBIDDEN');

      const tags = await tagsOf(admin);
      expect(tags).toHaveLength(2);
      expect(tags).toEqual(expect.arrayContaining([miaTag, adminTag]));
    });

    it('lets a member archive their own tag', async () => {
      const admin = await t.seed.organization();
      const mia = await t.seed.member(admin);
      const tag = (await createTag(mia, { name: 'Mine' }).expect(201)).body as Tag;
      const res = await archiveTag(mia, tag.id);
      expect(res.status).toBe(200);
      expect(res.body.archivedAt).toEqual(expect.any(String));
    });

    it('refuses a second live tag with the same name, whatever its case, with 409 CONFLICT', async () => {
      const admin = await t.seed.organization();
      const mia = await t.seed.member(admin);
      const vip = (await createTag(admin, { name: 'VIP' }).expect(201)).body as Tag;
      expectError(await createTag(mia, { name: 'VIP' }), 409, 'CONFLICT');
      expectError(await createTag(admin, { name: 'vip' }), 409, 'CONFLICT');

      const cold = (await createTag(admin, { name: 'Cold' }).expect(201)).body as Tag;
      expectError(await changeTag(admin, cold.id, { name: 'Vip' }), 409, 'CONFLICT');
      // renaming a tag to its own name in another case is no clash
      expect((await changeTag(admin, vip.id, { name: 'vip' })).status).toBe(200);

      expect((await tagsOf(admin)).map((tag) => tag.name).sort()).toEqual(['Cold', 'vip']);
    });

    it('frees the name of an archived tag', async () => {
      const admin = await t.seed.organization();
      const old = (await createTag(admin, { name: 'VIP' }).expect(201)).body as Tag;
      await archiveTag(admin, old.id).expect(200);
      const res = await createTag(admin, { name: 'VIP' });
      expect(res.status).toBe(201);
      expect(res.body.id).not.toBe(old.id);
    });

    it('lets two agencies use the same tag name', async () => {
      const admin = await t.seed.organization();
      const other = await t.seed.organization();
      await createTag(admin, { name: 'VIP' }).expect(201);
      expect((await createTag(other, { name: 'VIP' })).status).toBe(201);
    });

    it('leaves archived tags out unless includeArchived=true', async () => {
      const admin = await t.seed.organization();
      const live = (await createTag(admin, { name: 'Live' }).expect(201)).body as Tag;
      const gone = (await createTag(admin, { name: 'Gone' }).expect(201)).body as Tag;
      const archived = (await archiveTag(admin, gone.id).expect(200)).body as Tag;

      expect(await tagsOf(admin)).toEqual([live]);
      expect(await tagsOf(admin, '?includeArchived=false')).toEqual([live]);
      const all = await tagsOf(admin, '?includeArchived=true');
      expect(all).toHaveLength(2);
      expect(all).toEqual(expect.arrayContaining([live, archived]));

      expectValidationExactly(await listTags(admin, '?includeArchived=yes'), ['includeArchived']);
    });

    it('answers 404 NOT_FOUND for an archived tag', async () => {
      const admin = await t.seed.organization();
      const tag = (await createTag(admin, { name: 'Gone' }).expect(201)).body as Tag;
      await archiveTag(admin, tag.id).expect(200);
      expectError(await changeTag(admin, tag.id, { name: 'Back' }), 404, 'NOT_FOUND');
      expectError(await archiveTag(admin, tag.id), 404, 'NOT_FOUND');
    });

    it("answers 404 NOT_FOUND for another agency's tag and an unknown id, and leaves the tag be", async () => {
      const admin = await t.seed.organization();
      const other = await t.seed.organization();
      const theirs = (await createTag(other, { name: 'Theirs' }).expect(201)).body as Tag;
      expectError(await changeTag(admin, theirs.id, { name: 'Mine' }), 404, 'NOT_FOUND');
      expectError(await archiveTag(admin, theirs.id), 404, 'NOT_FOUND');
      expectError(await changeTag(admin, UNKNOWN_ID, { name: 'Ghost' }), 404, 'NOT_FOUND');
      expectError(await archiveTag(admin, UNKNOWN_ID), 404, 'NOT_FOUND');
      expect(await tagsOf(admin, '?includeArchived=true')).toEqual([]);
      expect(await tagsOf(other)).toEqual([theirs]);
    });

    it('refuses a bad color with 400 VALIDATION_FAILED naming color', async () => {
      const admin = await t.seed.organization();
      for (const color of ['red', '#FFF', '#GGGGGG', '1E88E5', '#1E88E5FF', 12]) {
        expectValidationExactly(await createTag(admin, { name: `Tag ${color}`, color }), ['color']);
      }
      const tag = (await createTag(admin, { name: 'Ok' }).expect(201)).body as Tag;
      expectValidationExactly(await changeTag(admin, tag.id, { color: 'blue' }), ['color']);
      expectValidationExactly(await changeTag(admin, tag.id, { color: null }), ['color']);
      expect(await tagsOf(admin)).toEqual([tag]);
    });

    it('refuses a missing, empty or over-long name with 400 VALIDATION_FAILED naming name', async () => {
      const admin = await t.seed.organization();
      expectValidationExactly(await createTag(admin, {}), ['name']);
      expectValidationExactly(await createTag(admin, { name: '' }), ['name']);
      expectValidationExactly(await createTag(admin, { name: 'x'.repeat(51) }), ['name']);
      const tag = (await createTag(admin, { name: 'x'.repeat(50) }).expect(201)).body as Tag;
      expectValidationExactly(await changeTag(admin, tag.id, { name: null }), ['name']);
      expectValidationExactly(await changeTag(admin, tag.id, { name: 'y'.repeat(51) }), ['name']);
      expect(await tagsOf(admin)).toEqual([tag]);
    });

    it('refuses a non-uuid tag id with 400 VALIDATION_FAILED naming tagId', async () => {
      const admin = await t.seed.organization();
      expectValidationExactly(await changeTag(admin, 'vip', { name: 'x' }), ['tagId']);
      expectValidationExactly(await archiveTag(admin, '1'), ['tagId']);
    });
  });
});
