import { expectError, TestApp } from '../fixtures';

/** Input that once reached the database: every one is a clear 400, never a 500. */
describe('hostile input', () => {
  let t: TestApp;
  let key: string;
  let keyId: string;
  let adminToken: string;
  beforeAll(async () => {
    t = await TestApp.start();
    const admin = await t.seed.organization();
    adminToken = admin.token;
    ({ key, id: keyId } = await t.seed.apiKey(admin, ['crm:read', 'crm:write']));
  });
  afterAll(() => t.stop());

  const lead = { firstName: 'Ana', lastName: 'Ruiz', email: 'a@x.es', phoneNumber: '+34', crmStatus: 'lead' };
  const cases: [string, 'get' | 'post' | 'put', string, object | undefined, string][] = [
    [
      'a lead id past bigint in a bulk body',
      'post',
      '/v1/leads/status',
      { leadIds: [1e20], crmStatus: 'lead' },
      'leadIds',
    ],
    [
      'a lead id past the safe integers',
      'post',
      '/v1/leads/status',
      { leadIds: [Number.MAX_SAFE_INTEGER + 2], crmStatus: 'lead' },
      'leadIds',
    ],
    ['a task for a lead id past bigint', 'post', '/v1/tasks', { leadId: 1e20, title: 'x' }, 'leadId'],
    ['a task filter past bigint', 'get', '/v1/tasks?leadId=99999999999999999999', undefined, 'leadId'],
    ['a task filter in exponent form', 'get', '/v1/tasks?leadId=1e3', undefined, 'leadId'],
    [
      'a NUL character in a body string',
      'post',
      '/v1/leads',
      { ...lead, firstName: 'A\u0000na' },
      'firstName',
    ],
    ['a NUL character in a query string', 'get', '/v1/leads?search=%00', undefined, 'search'],
    [
      'a NUL character in a nested body string',
      'post',
      '/v1/leads/1/notes',
      { content: 'x\u0000y' },
      'content',
    ],
  ];

  it.each(cases)('refuses %s with 400 VALIDATION_FAILED', async (_label, method, path, body, field) => {
    const res = await t.http[method](path).auth(key, { type: 'bearer' }).send(body);
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.body.error.details.issues.map((issue: { path: string }) => issue.path)).toEqual(
      expect.arrayContaining([expect.stringContaining(field)]),
    );
  });

  it('treats LIKE wildcards in a search as plain characters', async () => {
    await t.http.post('/v1/leads').auth(key, { type: 'bearer' }).send(lead).expect(201);
    const res = await t.http.get('/v1/leads?search=%25').auth(key, { type: 'bearer' }).expect(200);
    expect(res.body.total).toBe(0);
  });

  it('refuses null for fields that may be left out but never cleared', async () => {
    const created = await t.http.post('/v1/leads').auth(key, { type: 'bearer' }).send(lead).expect(201);
    const task = await t.http
      .post('/v1/tasks')
      .auth(key, { type: 'bearer' })
      .send({ leadId: created.body.lead.id, title: 'Call' })
      .expect(201);
    for (const field of ['title', 'status', 'assigneeIds', 'teamIds']) {
      const res = await t.http
        .patch(`/v1/tasks/${task.body.id}`)
        .auth(key, { type: 'bearer' })
        .send({ [field]: null });
      expectError(res, 400, 'VALIDATION_FAILED');
    }
    for (const field of ['name', 'scopes', 'allowedOrigins']) {
      const res = await t.http
        .patch(`/api-keys/${keyId}`)
        .auth(adminToken, { type: 'bearer' })
        .send({ [field]: null });
      expectError(res, 400, 'VALIDATION_FAILED');
    }
  });

  describe('deeply nested bodies', () => {
    const deepObject = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
    const deepArray = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
    /** `body` plus a field `extra` holding `nested` (raw JSON text). */
    const withExtra = (body: object, nested: string) =>
      `${JSON.stringify(body).slice(0, -1)},"extra":${nested}}`;
    const send = (method: 'post', path: string, token: string, raw: string) =>
      t.http[method](path).auth(token, { type: 'bearer' }).set('Content-Type', 'application/json').send(raw);
    const routes: [string, string, () => string][] = [
      ['/v1', '/v1/leads', () => key],
      ['session', '/tags', () => adminToken],
      ['/api-keys', '/api-keys', () => adminToken],
    ];

    it.each(
      routes.flatMap(([kind, path, token]) =>
        [
          ['objects', deepObject(10_000)],
          ['arrays', deepArray(10_000)],
        ].map(([shape, raw]) => [kind, shape, path, token, raw] as const),
      ),
    )(
      'refuses 10,000 levels on a %s route (%s) with 400 VALIDATION_FAILED',
      async (_k, _s, path, token, raw) => {
        const res = await send('post', path, token(), raw);
        expectError(res, 400, 'VALIDATION_FAILED');
        expect(res.body.error.details.issues).toEqual([
          { path: '', message: expect.stringMatching(/^body .*32/) },
        ]);
      },
    );

    it('refuses 33 levels and accepts 32, the unknown nested field ignored', async () => {
      const nested = { ...lead, email: 'deep@x.es' };
      expectError(
        await send('post', '/v1/leads', key, withExtra(nested, deepObject(32))),
        400,
        'VALIDATION_FAILED',
      );
      expectError(
        await send('post', '/tags', adminToken, withExtra({ name: 'Deep' }, deepArray(32))),
        400,
        'VALIDATION_FAILED',
      );
      const created = await send('post', '/v1/leads', key, withExtra(nested, deepObject(31))).expect(201);
      expect(created.body.lead).not.toHaveProperty('extra');
      await send('post', '/tags', adminToken, withExtra({ name: 'Deep' }, deepArray(31))).expect(201);
      await send('post', '/api-keys', adminToken, withExtra({ name: 'Deep' }, deepObject(31))).expect(201);
    });
  });

  describe('a missing required field', () => {
    const cases: [string, string, () => string, string[]][] = [
      [
        'POST /v1/leads',
        '/v1/leads',
        () => key,
        ['firstName', 'lastName', 'email', 'phoneNumber', 'crmStatus'],
      ],
      ['POST /v1/tasks', '/v1/tasks', () => key, ['leadId', 'title']],
      ['POST /api-keys', '/api-keys', () => adminToken, ['name']],
      ['POST /tags', '/tags', () => adminToken, ['name']],
    ];

    it.each(cases)('says it is required on %s', async (_label, path, token, fields) => {
      const res = await t.http.post(path).auth(token(), { type: 'bearer' }).send({});
      expectError(res, 400, 'VALIDATION_FAILED');
      const issues = res.body.error.details.issues as { path: string; message: string }[];
      for (const field of fields) {
        expect(issues).toContainEqual({ path: field, message: expect.stringMatching(/required/) });
      }
    });
  });
});
