import { asKey, asSession, keyRow, TestApp } from '../fixtures';

describe('a person who left and is invited back', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.stop());
  beforeEach(() => t.resetRows());

  const setUp = async () => {
    const admin = await t.seed.organization();
    const member = await t.seed.member(admin);
    const oldKey = await t.seed.apiKey(member, { scopes: ['crm:read'] });
    await asSession(t.http.delete(`/organization/members/${member.userId}`), admin).expect(204);
    return { admin, member, oldKey };
  };

  it('can be invited again and joins as the same person', async () => {
    const { admin, member } = await setUp();
    const invitation = await asSession(t.http.post('/organization/invitations'), admin)
      .send({ email: member.email, role: 'member' })
      .expect(201);
    const joined = await t.http
      .post('/auth/accept-invitation')
      .send({
        token: invitation.body.token,
        password: 'a brand new password',
        firstName: 'Mia',
        lastName: 'Back',
      })
      .expect(201);
    expect(joined.body.user).toMatchObject({ id: member.userId, email: member.email, lastName: 'Back' });
    expect(joined.body.role).toBe('member');
    await t.http.post('/auth/sign-in').send({ email: member.email, password: member.password }).expect(401);
    await t.http
      .post('/auth/sign-in')
      .send({ email: member.email, password: 'a brand new password' })
      .expect(200);
  });

  it('does not bring their old keys back', async () => {
    const { admin, member, oldKey } = await setUp();
    const invitation = await asSession(t.http.post('/organization/invitations'), admin)
      .send({ email: member.email, role: 'member' })
      .expect(201);
    const joined = await t.http
      .post('/auth/accept-invitation')
      .send({
        token: invitation.body.token,
        password: 'a brand new password',
        firstName: 'Mia',
        lastName: 'Back',
      })
      .expect(201);

    const refused = await asKey(t.http.get('/v1/me'), oldKey.key).expect(403);
    expect(refused.body.error.code).toBe('API_KEY_OWNER_NOT_IN_ORGANIZATION');
    expect(await keyRow(t, admin, oldKey.id)).toMatchObject({ ownerState: 'left' });

    const back = { ...member, token: joined.body.token };
    const newKey = await t.seed.apiKey(back, { scopes: ['crm:read'] });
    await asKey(t.http.get('/v1/me'), newKey.key).expect(200);
    expect(await keyRow(t, admin, newKey.id)).toMatchObject({ ownerState: 'member' });
  });

  it('still refuses an invitation for someone who is in an agency', async () => {
    const admin = await t.seed.organization();
    const other = await t.seed.organization();
    const res = await asSession(t.http.post('/organization/invitations'), admin)
      .send({ email: other.email, role: 'member' })
      .expect(409);
    expect(res.body.error.code).toBe('CONFLICT');
  });
});
