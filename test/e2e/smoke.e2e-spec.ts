import { TestApp } from '../test-app';

describe('smoke', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.stop());
  beforeEach(() => t.resetRows());

  it('signs up, adds a member and lists both', async () => {
    const admin = await t.signUp();
    const member = await t.addMember(admin);
    const res = await t.http.get('/organization/members').auth(member.token, { type: 'bearer' }).expect(200);
    expect(res.body.data).toHaveLength(2);
    expect(res.body.hasMore).toBe(false);
  });
});
