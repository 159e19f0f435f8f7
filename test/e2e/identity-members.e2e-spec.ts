import {
  expectError,
  expectUnauthenticated,
  expectValidationExactly,
  SignedIn,
  TestApp,
  uniqueEmail,
} from '../fixtures';

interface Member {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  imageUrl: string | null;
  role: string;
}

describe('identity: organization members', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.stop());
  beforeEach(() => t.resetRows());

  const list = (by: SignedIn) => t.http.get('/organization/members').auth(by.token, { type: 'bearer' });
  const roleOf = async (by: SignedIn, userId: string): Promise<string | undefined> =>
    ((await list(by).expect(200)).body.data as Member[]).find((m) => m.userId === userId)?.role;
  const changeRole = (by: SignedIn, userId: string, role: unknown) =>
    t.http.patch(`/organization/members/${userId}`).auth(by.token, { type: 'bearer' }).send({ role });
  const remove = (by: SignedIn, userId: string) =>
    t.http.delete(`/organization/members/${userId}`).auth(by.token, { type: 'bearer' });
  const session = (who: SignedIn) => t.http.get('/auth/session').auth(who.token, { type: 'bearer' });
  const invite = (by: SignedIn) =>
    t.http
      .post('/organization/invitations')
      .auth(by.token, { type: 'bearer' })
      .send({ email: uniqueEmail('probe'), role: 'member' });

  describe('GET /organization/members', () => {
    it('lists every member of the agency with the spec fields, for admins and members alike', async () => {
      const admin = await t.seed.organization({ firstName: 'Ana', lastName: 'Admin' });
      const mia = await t.seed.member(admin, 'member', 'Mia');
      const bob = await t.seed.member(admin, 'admin', 'Bob');
      const expected: Member[] = [
        {
          userId: admin.userId,
          firstName: 'Ana',
          lastName: 'Admin',
          email: admin.email,
          imageUrl: null,
          role: 'org:admin',
        },
        {
          userId: mia.userId,
          firstName: 'Mia',
          lastName: 'Member',
          email: mia.email,
          imageUrl: null,
          role: 'org:member',
        },
        {
          userId: bob.userId,
          firstName: 'Bob',
          lastName: 'Member',
          email: bob.email,
          imageUrl: null,
          role: 'org:admin',
        },
      ];
      for (const who of [admin, mia]) {
        const res = await list(who);
        expect(res.status).toBe(200);
        expect(Object.keys(res.body).sort()).toEqual(['data', 'hasMore']);
        expect(res.body.hasMore).toBe(false);
        expect(res.body.data).toHaveLength(3);
        expect(res.body.data).toEqual(expect.arrayContaining(expected));
      }
    });

    it("never shows another agency's people", async () => {
      const admin = await t.seed.organization();
      const mia = await t.seed.member(admin);
      const other = await t.seed.organization();
      const otherMember = await t.seed.member(other);
      const mine = (await list(mia).expect(200)).body.data as Member[];
      expect(mine.map((m) => m.userId).sort()).toEqual([admin.userId, mia.userId].sort());
      const theirs = (await list(other).expect(200)).body.data as Member[];
      expect(theirs.map((m) => m.userId).sort()).toEqual([other.userId, otherMember.userId].sort());
    });
  });

  describe('PATCH /organization/members/:userId', () => {
    it("changes a member's role and answers the Member", async () => {
      const admin = await t.seed.organization();
      const mia = await t.seed.member(admin, 'member', 'Mia');
      const res = await changeRole(admin, mia.userId, 'admin');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        userId: mia.userId,
        firstName: 'Mia',
        lastName: 'Member',
        email: mia.email,
        imageUrl: null,
        role: 'org:admin',
      });
      expect(await roleOf(admin, mia.userId)).toBe('org:admin');

      const back = await changeRole(admin, mia.userId, 'member');
      expect(back.status).toBe(200);
      expect(back.body.role).toBe('org:member');
      expect(await roleOf(admin, mia.userId)).toBe('org:member');
    });

    it("applies to the person's existing session on its next call", async () => {
      const admin = await t.seed.organization();
      const mia = await t.seed.member(admin);
      expectError(await invite(mia), 403, 'ORG_ADMIN_REQUIRED');

      await changeRole(admin, mia.userId, 'admin').expect(200);
      expect((await session(mia).expect(200)).body.role).toBe('admin');
      expect((await invite(mia)).status).toBe(201);

      await changeRole(admin, mia.userId, 'member').expect(200);
      expect((await session(mia).expect(200)).body.role).toBe('member');
      expectError(await invite(mia), 403, 'ORG_ADMIN_REQUIRED');
    });

    it('refuses a member with 403 ORG_ADMIN_REQUIRED and changes nothing', async () => {
      const admin = await t.seed.organization();
      const mia = await t.seed.member(admin);
      const leo = await t.seed.member(admin, 'member', 'Leo');
      expectError(await changeRole(mia, mia.userId, 'admin'), 403, 'ORG_ADMIN_REQUIRED');
      expectError(await changeRole(mia, leo.userId, 'admin'), 403, 'ORG_ADMIN_REQUIRED');
      expectError(await changeRole(mia, admin.userId, 'member'), 403, 'ORG_ADMIN_REQUIRED');
      expect(await roleOf(admin, mia.userId)).toBe('org:member');
      expect(await roleOf(admin, leo.userId)).toBe('org:member');
      expect(await roleOf(admin, admin.userId)).toBe('org:admin');
    });

    it('refuses to demote the last admin with 409 CONFLICT', async () => {
      const admin = await t.seed.organization();
      await t.seed.member(admin);
      expectError(await changeRole(admin, admin.userId, 'member'), 409, 'CONFLICT');
      expect(await roleOf(admin, admin.userId)).toBe('org:admin');
      // confirming the last admin as admin is no change and is allowed
      expect((await changeRole(admin, admin.userId, 'admin')).status).toBe(200);
    });

    it('lets one of two admins be demoted, then refuses the other', async () => {
      const admin = await t.seed.organization();
      const bob = await t.seed.member(admin, 'admin', 'Bob');
      expect((await changeRole(bob, admin.userId, 'member')).body.role).toBe('org:member');
      expectError(await changeRole(bob, bob.userId, 'member'), 409, 'CONFLICT');
      expect(await roleOf(bob, bob.userId)).toBe('org:admin');
    });

    it('keeps one admin when two admins demote each other at the same time', async () => {
      for (let round = 0; round < 3; round++) {
        const ana = await t.seed.organization();
        const bob = await t.seed.member(ana, 'admin', 'Bob');
        const answers = await Promise.all([
          changeRole(bob, ana.userId, 'member'),
          changeRole(ana, bob.userId, 'member'),
        ]);
        expect(answers.map((res) => res.status).sort()).toEqual([200, 409]);
        expectError(
          answers.find((res) => res.status === 409)!,
          409,
          'CONFLICT',
        );
        const admins = ((await list(ana).expect(200)).body.data as Member[]).filter(
          (m) => m.role === 'org:admin',
        );
        expect(admins).toHaveLength(1);
      }
    });

    it("answers 404 NOT_FOUND for another agency's person and an unknown id", async () => {
      const admin = await t.seed.organization();
      const other = await t.seed.organization();
      const stranger = await t.seed.member(other);
      expectError(await changeRole(admin, stranger.userId, 'admin'), 404, 'NOT_FOUND');
      expectError(await changeRole(admin, other.userId, 'member'), 404, 'NOT_FOUND');
      expectError(await changeRole(admin, '0190b3c4-1111-7222-8333-444455556666', 'admin'), 404, 'NOT_FOUND');
      expect(await roleOf(other, stranger.userId)).toBe('org:member');
      expect(await roleOf(other, other.userId)).toBe('org:admin');
    });

    it('refuses a non-uuid id with 400 VALIDATION_FAILED naming userId', async () => {
      const admin = await t.seed.organization();
      expectValidationExactly(await changeRole(admin, 'not-a-uuid', 'admin'), ['userId']);
      expectValidationExactly(await changeRole(admin, '12345', 'admin'), ['userId']);
    });

    it('refuses a role outside admin/member with 400 VALIDATION_FAILED naming role', async () => {
      const admin = await t.seed.organization();
      const mia = await t.seed.member(admin);
      expectValidationExactly(await changeRole(admin, mia.userId, 'org:admin'), ['role']);
      expectValidationExactly(await changeRole(admin, mia.userId, undefined), ['role']);
      expect(await roleOf(admin, mia.userId)).toBe('org:member');
    });
  });

  describe('DELETE /organization/members/:userId', () => {
    it('answers 204; the person leaves the list, every session of theirs ends and they cannot sign in', async () => {
      const admin = await t.seed.organization();
      const mia = await t.seed.member(admin);
      const second = await t.http
        .post('/auth/sign-in')
        .send({ email: mia.email, password: mia.password })
        .expect(200);

      const res = await remove(admin, mia.userId);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');

      expectUnauthenticated(await session(mia));
      expectUnauthenticated(await t.http.get('/auth/session').auth(second.body.token, { type: 'bearer' }));
      expectUnauthenticated(await t.http.get('/tags').auth(mia.token, { type: 'bearer' }));
      expectUnauthenticated(
        await t.http.post('/auth/sign-in').send({ email: mia.email, password: mia.password }),
      );

      const members = (await list(admin).expect(200)).body.data as Member[];
      expect(members.map((m) => m.userId)).toEqual([admin.userId]);
      await session(admin).expect(200);
    });

    it('takes the person out of every team', async () => {
      const admin = await t.seed.organization();
      const mia = await t.seed.member(admin, 'member', 'Mia');
      const leo = await t.seed.member(admin, 'member', 'Leo');
      const sales = await t.seed.team(admin, 'Sales', [mia.userId, leo.userId]);
      const lettings = await t.seed.team(admin, 'Lettings', [mia.userId]);
      const rentals = await t.seed.team(admin, 'Rentals', [leo.userId]);

      await remove(admin, mia.userId).expect(204);

      const teams = (
        await t.http.get('/organization/teams').auth(admin.token, { type: 'bearer' }).expect(200)
      ).body.data as { id: string; memberIds: string[]; memberCount: number }[];
      const byId = new Map(teams.map((team) => [team.id, team]));
      expect(byId.get(sales.id)).toMatchObject({ memberIds: [leo.userId], memberCount: 1 });
      expect(byId.get(lettings.id)).toMatchObject({ memberIds: [], memberCount: 0 });
      expect(byId.get(rentals.id)).toMatchObject({ memberIds: [leo.userId], memberCount: 1 });
    });

    it('answers 404 NOT_FOUND once the person has left', async () => {
      const admin = await t.seed.organization();
      const mia = await t.seed.member(admin);
      await remove(admin, mia.userId).expect(204);
      expectError(await remove(admin, mia.userId), 404, 'NOT_FOUND');
      expectError(await changeRole(admin, mia.userId, 'admin'), 404, 'NOT_FOUND');
    });

    it('refuses a member with 403 ORG_ADMIN_REQUIRED and keeps everyone', async () => {
      const admin = await t.seed.organization();
      const mia = await t.seed.member(admin);
      const leo = await t.seed.member(admin, 'member', 'Leo');
      expectError(await remove(mia, leo.userId), 403, 'ORG_ADMIN_REQUIRED');
      expectError(await remove(mia, admin.userId), 403, 'ORG_ADMIN_REQUIRED');
      expectError(await remove(mia, mia.userId), 403, 'ORG_ADMIN_REQUIRED');
      expect((await list(admin).expect(200)).body.data).toHaveLength(3);
      await session(leo).expect(200);
    });

    it('refuses to remove the last admin with 409 CONFLICT', async () => {
      const admin = await t.seed.organization();
      await t.seed.member(admin);
      expectError(await remove(admin, admin.userId), 409, 'CONFLICT');
      await session(admin).expect(200);
      expect(await roleOf(admin, admin.userId)).toBe('org:admin');
    });

    it('lets an admin leave when another admin remains, ending their own session', async () => {
      const admin = await t.seed.organization();
      const bob = await t.seed.member(admin, 'admin', 'Bob');
      await remove(admin, admin.userId).expect(204);
      expectUnauthenticated(await session(admin));
      const members = (await list(bob).expect(200)).body.data as Member[];
      expect(members.map((m) => m.userId)).toEqual([bob.userId]);
      expectError(await remove(bob, bob.userId), 409, 'CONFLICT');
    });

    it('keeps one admin when two admins remove each other at the same time', async () => {
      for (let round = 0; round < 3; round++) {
        const ana = await t.seed.organization();
        const bob = await t.seed.member(ana, 'admin', 'Bob');
        const mia = await t.seed.member(ana, 'member');
        const answers = await Promise.all([remove(bob, ana.userId), remove(ana, bob.userId)]);
        // the loser is refused: 409 if its call got in before the other removal ended, else 401
        expect(answers.filter((res) => res.status === 204)).toHaveLength(1);
        const members = (await list(mia).expect(200)).body.data as Member[];
        expect(members.filter((m) => m.role === 'org:admin')).toHaveLength(1);
        expect(members).toHaveLength(2);
      }
    });

    it("answers 404 NOT_FOUND for another agency's person and leaves them be", async () => {
      const admin = await t.seed.organization();
      const other = await t.seed.organization();
      const stranger = await t.seed.member(other);
      expectError(await remove(admin, stranger.userId), 404, 'NOT_FOUND');
      expectError(await remove(admin, other.userId), 404, 'NOT_FOUND');
      await session(stranger).expect(200);
      expect((await list(other).expect(200)).body.data).toHaveLength(2);
    });

    it('refuses a non-uuid id with 400 VALIDATION_FAILED naming userId', async () => {
      const admin = await t.seed.organization();
      expectValidationExactly(await remove(admin, 'me'), ['userId']);
    });
  });
});
