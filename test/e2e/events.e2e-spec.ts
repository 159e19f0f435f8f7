import { Agency, api, expectError, expectValidation, TestApp } from '../fixtures';

describe('Events: GET /v1/events', () => {
  let t: TestApp;
  let a: Agency;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.stop());
  beforeEach(async () => {
    await t.resetRows();
    a = await t.seed.agency();
  });

  const events = (key: string, query = '') => api(t, key).get(`/v1/events${query}`);

  it('an organization without events: empty page, nextAfter = after', async () => {
    const res = await events(a.admin.key, '?after=7');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], hasMore: false, nextAfter: 7 });
    expect((await events(a.admin.key)).body).toEqual({ data: [], hasMore: false, nextAfter: 0 });
  });

  it('validation: limit 0/501, after -1, unknown types', async () => {
    expectValidation(await events(a.admin.key, '?limit=0'), 'limit');
    expectValidation(await events(a.admin.key, '?limit=501'), 'limit');
    expectValidation(await events(a.admin.key, '?after=-1'), 'after');
    expectValidation(await events(a.admin.key, '?after=abc'), 'after');
    expectValidation(await events(a.admin.key, '?types=lead.nope'), 'types');
    expectValidation(await events(a.admin.key, '?types=nope.*'), 'types');
    expectValidation(await events(a.admin.key, '?types=lead.created,'), 'types');
    expect((await events(a.admin.key, '?types=lead.*,task.completed&limit=500')).status).toBe(200);
    void expectError;
  });
});
