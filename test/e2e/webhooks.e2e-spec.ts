import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { v7 as uuidv7 } from 'uuid';
import { Webhook } from 'standardwebhooks';
import {
  DAY,
  HOUR,
  MINUTE,
  OutboundResolver,
  Outbox,
  SYSTEM_ACTOR,
  type EventType,
  type ResolvedAddress,
} from '@app/platform';
import { MAX_ATTEMPTS, RETRY_SCHEDULE_MS, WebhookDispatcher } from '@app/events';
import {
  Agency,
  api,
  expectError,
  expectNotFound,
  expectValidation,
  postLead,
  sql,
  TestApp,
} from '../fixtures';

/**
 * Webhook endpoints and deliveries (issue 19 items 3-5; INTERFACES.md "Webhook endpoints"): the
 * routes with their access rules, limits and validation; Standard Webhooks signatures checked with
 * the `standardwebhooks` package (not our code); the retry schedule driven by the test clock
 * against a local receiver; 410; the 3-day auto-disable and its event; rotation's two signatures;
 * private addresses refused at creation and at delivery; the relay run twice sends once.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(probe: () => Promise<T | undefined | null | false> | T, what: string, ms = 5_000) {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

type Reply = { status: number; headers?: Record<string, string> };

/** A local receiver: records each POST, answers the queued replies in turn (then `fallback`). */
class Receiver {
  readonly requests: Received[] = [];
  replies: Reply[] = [];
  fallback: Reply = { status: 200 };
  private server?: Server;
  url = '';

  async start(path = '/hook'): Promise<this> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        this.requests.push({ headers: req.headers, body });
        const reply = this.replies.shift() ?? this.fallback;
        res.writeHead(reply.status, reply.headers ?? {});
        res.end('ok');
      });
    });
    await new Promise<void>((done) => this.server!.listen(0, '127.0.0.1', done));
    this.url = `http://localhost:${(this.server.address() as { port: number }).port}${path}`;
    return this;
  }

  get port(): number {
    return (this.server!.address() as { port: number }).port;
  }

  bodies(): Record<string, unknown>[] {
    return this.requests.map((r) => JSON.parse(r.body) as Record<string, unknown>);
  }

  async stop(): Promise<void> {
    await new Promise((done) => this.server?.close(done));
  }
}

/** Verifies with the `standardwebhooks` package at the attempt's own time (the test clock moves). */
function verify(secret: string, received: Received): unknown {
  const at = Number(received.headers['webhook-timestamp']) * 1000;
  const now = jest.spyOn(Date, 'now').mockReturnValue(at);
  try {
    return new Webhook(secret).verify(received.body, {
      'webhook-id': String(received.headers['webhook-id']),
      'webhook-timestamp': String(received.headers['webhook-timestamp']),
      'webhook-signature': String(received.headers['webhook-signature']),
    });
  } finally {
    now.mockRestore();
  }
}

/** Records one event as a write would, in its own transaction; answers its id. */
async function emit(
  t: TestApp,
  organizationId: string,
  type: EventType = 'note.created',
  object: Record<string, unknown> = { id: uuidv7(), content: 'Called, wants a viewing' },
): Promise<string> {
  const id = `evt_${uuidv7()}`;
  await t.orm.em.fork().transactional(async (em) => {
    t.get(Outbox).record(em, {
      id,
      organizationId,
      type,
      occurredAt: t.clock.now(),
      subject: { type: type.split('.')[0], id: String(object.id), leadId: 1 },
      recordVersion: 1,
      actor: SYSTEM_ACTOR,
      data: { object },
    });
  });
  return id;
}

/** What the pump does, run now at the test clock's time: relay, then every due delivery. */
async function pump(t: TestApp): Promise<void> {
  const dispatcher = t.get(WebhookDispatcher);
  await dispatcher.relay();
  await dispatcher.deliverDue(t.clock.now());
}

interface EndpointBody {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  status: string;
  disabledReason: string | null;
  createdAt: string;
  secret?: string;
}

interface DeliveryBody {
  id: string;
  eventId: string;
  eventType: string;
  attempt: number;
  status: string;
  responseStatus: number | null;
  durationMs: number | null;
  error: string | null;
  createdAt: string;
  nextAttemptAt: string | null;
}

const ENDPOINT_FIELDS = ['createdAt', 'description', 'disabledReason', 'events', 'id', 'status', 'url'];
const DELIVERY_FIELDS = [
  'attempt',
  'createdAt',
  'durationMs',
  'error',
  'eventId',
  'eventType',
  'id',
  'nextAttemptAt',
  'responseStatus',
  'status',
];
const MISSING = '0190a0a0-0000-7000-8000-000000000001';
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

describe('Webhooks', () => {
  let t: TestApp;
  let receiver: Receiver;

  const create = async (
    admin: { key: string },
    body: Record<string, unknown>,
  ): Promise<EndpointBody & { secret: string }> => {
    const res = await api(t, admin.key)
      .post('/v1/webhook-endpoints')
      .send({ url: receiver.url, events: ['*'], ...body });
    if (res.status !== 201)
      throw new Error(`endpoint not created: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as EndpointBody & { secret: string };
  };
  const deliveries = async (admin: { key: string }, endpointId: string): Promise<DeliveryBody[]> =>
    (await api(t, admin.key).get(`/v1/webhook-endpoints/${endpointId}/deliveries`).expect(200)).body
      .data as DeliveryBody[];
  const endpointOf = async (admin: { key: string }, id: string): Promise<EndpointBody> =>
    (await api(t, admin.key).get(`/v1/webhook-endpoints/${id}`).expect(200)).body as EndpointBody;

  beforeAll(async () => {
    t = await TestApp.start({
      env: { WEBHOOK_ALLOW_INSECURE: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'silent' },
    });
  });
  afterAll(() => t.stop());

  beforeEach(async () => {
    receiver = await new Receiver().start();
  });
  afterEach(() => receiver.stop());

  describe('the routes', () => {
    let a: Agency;
    let b: Agency;
    beforeAll(async () => {
      a = await t.seed.agency('Hooks Agency');
      b = await t.seed.agency('Other Agency');
    });

    it('creates (secret only in that answer), lists, reads, changes and deletes', async () => {
      const res = await api(t, a.admin.key)
        .post('/v1/webhook-endpoints')
        .send({ url: receiver.url, description: 'CRM sync', events: ['lead.created', 'deal.*'] })
        .expect(201);
      const created = res.body as EndpointBody & { secret: string };
      expect(Object.keys(created).sort()).toEqual([...ENDPOINT_FIELDS, 'secret'].sort());
      expect(created).toMatchObject({
        url: receiver.url,
        description: 'CRM sync',
        events: ['lead.created', 'deal.*'],
        status: 'enabled',
        disabledReason: null,
        createdAt: t.clock.now().toISOString(),
      });
      expect(created.secret).toMatch(SECRET);
      expect(Buffer.from(created.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);

      const read = await endpointOf(a.admin, created.id);
      expect(Object.keys(read).sort()).toEqual(ENDPOINT_FIELDS);
      const { secret: _secret, ...withoutSecret } = created;
      expect(read).toEqual(withoutSecret);
      const list = await api(t, a.admin.key).get('/v1/webhook-endpoints').expect(200);
      expect(list.body).toEqual({ data: [withoutSecret], hasMore: false });
      expect(JSON.stringify(list.body)).not.toContain('whsec_');

      const changed = await api(t, a.admin.key)
        .patch(`/v1/webhook-endpoints/${created.id}`)
        .send({ description: null, events: ['note.*'], enabled: false })
        .expect(200);
      expect(changed.body).toEqual({
        ...withoutSecret,
        description: null,
        events: ['note.*'],
        status: 'disabled',
        disabledReason: 'manual',
      });
      const enabled = await api(t, a.admin.key)
        .patch(`/v1/webhook-endpoints/${created.id}`)
        .send({ enabled: true })
        .expect(200);
      expect(enabled.body).toMatchObject({ status: 'enabled', disabledReason: null });

      await api(t, a.admin.key).delete(`/v1/webhook-endpoints/${created.id}`).expect(204);
      expectNotFound(
        await api(t, a.admin.key).get(`/v1/webhook-endpoints/${created.id}`),
        'Webhook endpoint',
      );
      expect(await sql(t, 'select 1 from webhook_endpoint where id = ?', [created.id])).toEqual([]);
    });

    it('an Idempotency-Key never stores the answer with its secret (a retry creates again)', async () => {
      const send = () =>
        api(t, a.admin.key)
          .post('/v1/webhook-endpoints')
          .set('Idempotency-Key', 'hook-create-1')
          .send({ url: receiver.url, events: ['*'] });
      const first = await send().expect(201);
      const again = await send().expect(201);
      expect(again.headers['idempotent-replayed']).toBeUndefined();
      expect(again.body.id).not.toBe(first.body.id);
      const stored = await sql<{ response_body: string | null }>(
        t,
        "select response_body from idempotency_records where key = 'hook-create-1'",
      );
      expect(JSON.stringify(stored)).not.toContain('whsec_');
      for (const id of [first.body.id, again.body.id])
        await api(t, a.admin.key).delete(`/v1/webhook-endpoints/${id}`).expect(204);
    });

    it('refuses a bad url, empty or unknown events and a description over 255', async () => {
      const post = (body: Record<string, unknown>) =>
        api(t, a.admin.key)
          .post('/v1/webhook-endpoints')
          .send({ url: receiver.url, events: ['*'], ...body });
      expectValidation(await post({ url: 'ftp://example.com/hook' }), 'url');
      expectValidation(await post({ url: 'http://example.com/hook' }), 'url');
      expectValidation(await post({ url: 'not a url' }), 'url');
      expectValidation(await post({ url: 'https://user:pw@example.com/hook' }), 'url');
      expectValidation(await post({ url: undefined }), 'url');
      expectValidation(await post({ events: [] }), 'events');
      expectValidation(await post({ events: ['lead.nope'] }), 'events');
      expectValidation(await post({ events: ['lead.*', 'nope.*'] }), 'events');
      expectValidation(await post({ events: undefined }), 'events');
      expectValidation(await post({ description: 'x'.repeat(256) }), 'description');
      expect((await post({ description: 'x'.repeat(255), events: ['lead.*', 'ping'] })).status).toBe(201);
      expectValidation(await post({ enabled: null }), 'enabled');
      const [first] = (await api(t, a.admin.key).get('/v1/webhook-endpoints').expect(200)).body.data;
      expectValidation(
        await api(t, a.admin.key).patch(`/v1/webhook-endpoints/${first.id}`).send({ events: [] }),
        'events',
      );
      expectValidation(
        await api(t, a.admin.key).patch(`/v1/webhook-endpoints/${first.id}`).send({ url: 'http://x.org' }),
        'url',
      );
      await api(t, a.admin.key).delete(`/v1/webhook-endpoints/${first.id}`).expect(204);
    });

    it('holds 10 endpoints per organization: the 11th is 409 CONFLICT', async () => {
      const before = (await api(t, a.admin.key).get('/v1/webhook-endpoints').expect(200)).body.data.length;
      for (let i = before; i < 10; i++) await create(a.admin, { description: `n${i}` });
      const res = await api(t, a.admin.key)
        .post('/v1/webhook-endpoints')
        .send({ url: receiver.url, events: ['*'] });
      expectError(res, 409, 'CONFLICT');
      // another organization is not counted
      await create(b.admin, {});
      const listed = (await api(t, a.admin.key).get('/v1/webhook-endpoints').expect(200)).body.data;
      expect(listed).toHaveLength(10);
      for (const endpoint of listed)
        await api(t, a.admin.key).delete(`/v1/webhook-endpoints/${endpoint.id}`).expect(204);
    });

    it('is for admins: a member is 403 ORG_ADMIN_REQUIRED on every route', async () => {
      const endpoint = await create(a.admin, {});
      const base = `/v1/webhook-endpoints/${endpoint.id}`;
      const member = api(t, a.member.key);
      const calls = [
        member.get('/v1/webhook-endpoints'),
        member.post('/v1/webhook-endpoints').send({ url: receiver.url, events: ['*'] }),
        member.get(base),
        member.patch(base).send({ description: 'x' }),
        member.delete(base),
        member.post(`${base}/rotate-secret`),
        member.post(`${base}/test`),
        member.get(`${base}/deliveries`),
        member.post(`${base}/deliveries/${MISSING}/retry`),
      ];
      for (const call of calls) expectError(await call, 403, 'ORG_ADMIN_REQUIRED');
      expect(receiver.requests).toEqual([]);
      await api(t, a.admin.key).delete(base).expect(204);
    });

    it('writes need an active plan (403 SUBSCRIPTION_REQUIRED); reads do not', async () => {
      const endpoint = await create(a.admin, {});
      await t.seed.plan(a.admin, false);
      try {
        expectError(
          await api(t, a.admin.key).patch(`/v1/webhook-endpoints/${endpoint.id}`).send({ description: 'x' }),
          403,
          'SUBSCRIPTION_REQUIRED',
        );
        await api(t, a.admin.key).get(`/v1/webhook-endpoints/${endpoint.id}`).expect(200);
      } finally {
        await t.seed.plan(a.admin, true);
      }
      await api(t, a.admin.key).delete(`/v1/webhook-endpoints/${endpoint.id}`).expect(204);
    });

    it("another organization's endpoint (and delivery) is 404 on every route", async () => {
      const endpoint = await create(b.admin, {});
      const sent = await api(t, b.admin.key).post(`/v1/webhook-endpoints/${endpoint.id}/test`).expect(200);
      const base = `/v1/webhook-endpoints/${endpoint.id}`;
      const other = api(t, a.admin.key);
      const calls = [
        other.get(base),
        other.patch(base).send({ description: 'x' }),
        other.delete(base),
        other.post(`${base}/rotate-secret`),
        other.post(`${base}/test`),
        other.get(`${base}/deliveries`),
        other.post(`${base}/deliveries/${sent.body.id}/retry`),
      ];
      for (const call of calls) expectNotFound(await call, 'Webhook endpoint');
      expectNotFound(await other.get(`/v1/webhook-endpoints/${MISSING}`), 'Webhook endpoint');
      // a delivery of another endpoint, through one of ours
      const ours = await create(a.admin, {});
      expectNotFound(
        await other.post(`/v1/webhook-endpoints/${ours.id}/deliveries/${sent.body.id}/retry`),
        'Webhook delivery',
      );
      expect((await endpointOf(b.admin, endpoint.id)).description).toBeNull();
      await api(t, b.admin.key).delete(base).expect(204);
      await other.delete(`/v1/webhook-endpoints/${ours.id}`).expect(204);
    });
  });

  describe('delivery', () => {
    let a: Agency;
    beforeAll(async () => {
      a = await t.seed.agency('Delivery Agency');
    });
    afterEach(async () => {
      for (const endpoint of (await api(t, a.admin.key).get('/v1/webhook-endpoints').expect(200)).body.data)
        await api(t, a.admin.key).delete(`/v1/webhook-endpoints/${endpoint.id}`).expect(204);
    });

    it('POSTs the event as GET /v1/events answers it, signed (verified with standardwebhooks)', async () => {
      const endpoint = await create(a.admin, { events: ['note.*'] });
      const eventId = await emit(t, a.admin.organizationId, 'note.created');
      await emit(t, a.admin.organizationId, 'deal.created'); // not subscribed
      await pump(t);
      await until(() => receiver.requests.length === 1, 'the delivery');
      const [received] = receiver.requests;
      expect(received.headers['content-type']).toBe('application/json');
      expect(received.headers['webhook-id']).toBe(eventId);
      expect(received.headers['webhook-timestamp']).toBe(String(Math.floor(t.clock.now().getTime() / 1000)));
      expect(String(received.headers['webhook-signature'])).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
      const verified = verify(endpoint.secret, received);
      const event = JSON.parse(received.body) as { sequence: number };
      expect(verified).toEqual(event);
      const log = await api(t, a.admin.key)
        .get(`/v1/events?after=${event.sequence - 1}&limit=1`)
        .expect(200);
      expect(log.body.data).toEqual([event]);
      expect(event).toMatchObject({ id: eventId, type: 'note.created' });
      // a wrong secret does not verify
      expect(() =>
        new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(received.body, {
          'webhook-id': String(received.headers['webhook-id']),
          'webhook-timestamp': String(received.headers['webhook-timestamp']),
          'webhook-signature': String(received.headers['webhook-signature']),
        }),
      ).toThrow();

      const [delivery] = await deliveries(a.admin, endpoint.id);
      expect(Object.keys(delivery).sort()).toEqual(DELIVERY_FIELDS);
      expect(delivery).toEqual({
        id: expect.any(String),
        eventId,
        eventType: 'note.created',
        attempt: 1,
        status: 'succeeded',
        responseStatus: 200,
        durationMs: expect.any(Number),
        error: null,
        createdAt: t.clock.now().toISOString(),
        nextAttemptAt: null,
      });
    });

    it('a real change (a lead and its note through /v1) reaches the endpoint as its events', async () => {
      const endpoint = await create(a.admin, { events: ['lead.created', 'note.*'] });
      const lead = await postLead(t, a.admin.key);
      await api(t, a.admin.key)
        .post(`/v1/leads/${lead.id}/notes`)
        .send({ content: 'Wants a viewing' })
        .expect(201);
      await pump(t);
      await until(() => receiver.requests.length === 2, 'both events');
      const bodies = receiver.requests.map((r) => verify(endpoint.secret, r) as Record<string, unknown>);
      expect(bodies.map((b) => b.type).sort()).toEqual(['lead.created', 'note.created']);
      const created = bodies.find((b) => b.type === 'lead.created')!;
      expect(created).toMatchObject({
        subject: { type: 'lead', id: String(lead.id), leadId: lead.id },
        recordVersion: 1,
        data: { object: { id: lead.id } },
      });
    });

    it('relaying twice (and from an old cursor) sends once', async () => {
      const endpoint = await create(a.admin, { events: ['*'] });
      const second = await new Receiver().start();
      try {
        const other = await create(a.admin, { url: second.url, events: ['note.created'] });
        const ids = [await emit(t, a.admin.organizationId), await emit(t, a.admin.organizationId)];
        const dispatcher = t.get(WebhookDispatcher);
        await Promise.all([dispatcher.relay(), dispatcher.relay(), dispatcher.relay()]);
        await sql(t, 'update webhook_relay_cursor set last_sequence = 0 where organization_id = ?', [
          a.admin.organizationId,
        ]);
        await dispatcher.relay();
        await Promise.all([pump(t), pump(t)]);
        await until(() => receiver.requests.length === 2 && second.requests.length === 2, 'both deliveries');
        await sleep(700); // the app's own pump ran meanwhile too
        await pump(t);
        expect(receiver.requests.map((r) => r.headers['webhook-id']).sort()).toEqual([...ids].sort());
        expect(second.requests.map((r) => r.headers['webhook-id']).sort()).toEqual([...ids].sort());
        expect((await deliveries(a.admin, endpoint.id)).length).toBe(2);
        expect((await deliveries(a.admin, other.id)).length).toBe(2);
      } finally {
        await second.stop();
      }
    });

    it('an endpoint receives only events committed after it was made', async () => {
      const before = await emit(t, a.admin.organizationId);
      await create(a.admin, {});
      const after = await emit(t, a.admin.organizationId);
      await pump(t);
      await until(() => receiver.requests.length >= 1, 'the delivery');
      await sleep(300);
      expect(receiver.requests.map((r) => r.headers['webhook-id'])).toEqual([after]);
      expect(before).not.toBe(after);
    });

    it('retries on the schedule (5 s, 5 min, 30 min, …) with the same webhook-id until a 2xx', async () => {
      const endpoint = await create(a.admin, {});
      receiver.replies = [{ status: 500 }, { status: 502 }, { status: 404 }];
      const eventId = await emit(t, a.admin.organizationId);
      const start = t.clock.now().getTime();
      await pump(t);
      await until(() => receiver.requests.length === 1, 'attempt 1');
      let [delivery] = await until(async () => {
        const found = await deliveries(a.admin, endpoint.id);
        return found[0]?.responseStatus === 500 ? found : null;
      }, 'attempt 1 recorded');
      expect(delivery).toMatchObject({
        attempt: 1,
        status: 'pending',
        responseStatus: 500,
        error: expect.any(String),
        nextAttemptAt: new Date(start + 5_000).toISOString(),
      });

      t.clock.advance(4_900);
      await pump(t);
      await sleep(100);
      expect(receiver.requests).toHaveLength(1); // not yet
      t.clock.advance(100);
      await pump(t);
      await until(() => receiver.requests.length === 2, 'attempt 2');
      [delivery] = await until(async () => {
        const found = await deliveries(a.admin, endpoint.id);
        return found[0]?.attempt === 2 && found[0].responseStatus === 502 ? found : null;
      }, 'attempt 2 recorded');
      expect(delivery.nextAttemptAt).toBe(new Date(t.clock.now().getTime() + 5 * MINUTE).toISOString());

      t.clock.advance(5 * MINUTE);
      await pump(t);
      await until(() => receiver.requests.length === 3, 'attempt 3');
      [delivery] = await until(async () => {
        const found = await deliveries(a.admin, endpoint.id);
        return found[0]?.attempt === 3 && found[0].responseStatus === 404 ? found : null;
      }, 'attempt 3 recorded');
      expect(delivery.nextAttemptAt).toBe(new Date(t.clock.now().getTime() + 30 * MINUTE).toISOString());

      t.clock.advance(30 * MINUTE);
      await pump(t);
      await until(() => receiver.requests.length === 4, 'attempt 4');
      [delivery] = await until(async () => {
        const found = await deliveries(a.admin, endpoint.id);
        return found[0]?.status === 'succeeded' ? found : null;
      }, 'attempt 4 recorded');
      expect(delivery).toMatchObject({ attempt: 4, responseStatus: 200, error: null, nextAttemptAt: null });
      expect(new Set(receiver.requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([eventId]));
      expect(new Set(receiver.requests.map((r) => r.headers['webhook-timestamp'])).size).toBe(4);
      for (const received of receiver.requests) expect(verify(endpoint.secret, received)).toBeTruthy();
      expect((await endpointOf(a.admin, endpoint.id)).status).toBe('enabled');
    });

    it('gives up after the tenth attempt (about 3 days): failed; the endpoint stays enabled', async () => {
      const endpoint = await create(a.admin, {});
      receiver.fallback = { status: 500 };
      await emit(t, a.admin.organizationId);
      await pump(t);
      await until(() => receiver.requests.length === 1, 'attempt 1');
      for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
        const [delivery] = await until(async () => {
          const found = await deliveries(a.admin, endpoint.id);
          return found[0]?.attempt === attempt && found[0].nextAttemptAt ? found : null;
        }, `attempt ${attempt} recorded`);
        expect(new Date(delivery.nextAttemptAt!).getTime() - t.clock.now().getTime()).toBe(
          RETRY_SCHEDULE_MS[attempt - 1],
        );
        t.clock.advance(RETRY_SCHEDULE_MS[attempt - 1]);
        await pump(t);
        await until(() => receiver.requests.length === attempt + 1, `attempt ${attempt + 1}`);
      }
      const [last] = await until(async () => {
        const found = await deliveries(a.admin, endpoint.id);
        return found[0]?.status === 'failed' ? found : null;
      }, 'failed');
      expect(last).toMatchObject({ attempt: 10, status: 'failed', responseStatus: 500, nextAttemptAt: null });
      expect(RETRY_SCHEDULE_MS.reduce((sum, ms) => sum + ms, 0)).toBeLessThan(3 * DAY);
      expect(await endpointOf(a.admin, endpoint.id)).toMatchObject({
        status: 'enabled',
        disabledReason: null,
      });

      // a manual retry: pending and due now, attempted once more
      receiver.fallback = { status: 200 };
      const queued = await api(t, a.admin.key)
        .post(`/v1/webhook-endpoints/${endpoint.id}/deliveries/${last.id}/retry`)
        .expect(202);
      expect(queued.body).toEqual({
        ...last,
        status: 'pending',
        nextAttemptAt: t.clock.now().toISOString(),
      });
      await pump(t);
      await until(() => receiver.requests.length === MAX_ATTEMPTS + 1, 'the retry');
      const [retried] = await until(async () => {
        const found = await deliveries(a.admin, endpoint.id);
        return found[0]?.status === 'succeeded' ? found : null;
      }, 'retried');
      expect(retried).toMatchObject({ attempt: 11, responseStatus: 200 });
      expectNotFound(
        await api(t, a.admin.key).post(`/v1/webhook-endpoints/${endpoint.id}/deliveries/${MISSING}/retry`),
        'Webhook delivery',
      );
    });

    it('honours a longer Retry-After on 429 and 503, not a shorter one', async () => {
      const endpoint = await create(a.admin, {});
      receiver.replies = [
        { status: 429, headers: { 'Retry-After': '3600' } },
        { status: 503, headers: { 'Retry-After': '1' } },
      ];
      await emit(t, a.admin.organizationId);
      await pump(t);
      let [delivery] = await until(async () => {
        const found = await deliveries(a.admin, endpoint.id);
        return found[0]?.responseStatus === 429 ? found : null;
      }, 'attempt 1 recorded');
      expect(delivery.nextAttemptAt).toBe(new Date(t.clock.now().getTime() + HOUR).toISOString());
      t.clock.advance(HOUR);
      await pump(t);
      [delivery] = await until(async () => {
        const found = await deliveries(a.admin, endpoint.id);
        return found[0]?.responseStatus === 503 ? found : null;
      }, 'attempt 2 recorded');
      expect(delivery.nextAttemptAt).toBe(new Date(t.clock.now().getTime() + 5 * MINUTE).toISOString());
    });

    it('a 410 disables the endpoint at once (gone) and fails its pending deliveries', async () => {
      const endpoint = await create(a.admin, {});
      receiver.replies = [{ status: 410 }];
      await emit(t, a.admin.organizationId);
      await pump(t);
      await until(async () => (await endpointOf(a.admin, endpoint.id)).status === 'disabled', 'disabled');
      expect(await endpointOf(a.admin, endpoint.id)).toMatchObject({
        status: 'disabled',
        disabledReason: 'gone',
      });
      const [delivery] = await deliveries(a.admin, endpoint.id);
      expect(delivery).toMatchObject({
        status: 'failed',
        attempt: 1,
        responseStatus: 410,
        nextAttemptAt: null,
      });
      // nothing more goes there while it is disabled
      await emit(t, a.admin.organizationId);
      await pump(t);
      await sleep(300);
      expect(receiver.requests).toHaveLength(1);
      expectError(
        await api(t, a.admin.key).post(`/v1/webhook-endpoints/${endpoint.id}/test`),
        409,
        'CONFLICT',
      );
      expectError(
        await api(t, a.admin.key).post(
          `/v1/webhook-endpoints/${endpoint.id}/deliveries/${delivery.id}/retry`,
        ),
        409,
        'CONFLICT',
      );
      // enabling clears the failure state
      const enabled = await api(t, a.admin.key)
        .patch(`/v1/webhook-endpoints/${endpoint.id}`)
        .send({ enabled: true })
        .expect(200);
      expect(enabled.body).toMatchObject({ status: 'enabled', disabledReason: null });
      // the events of its disabled time are not sent; the ones after enabling are
      const later = await emit(t, a.admin.organizationId);
      await pump(t);
      await until(() => receiver.requests.length === 2, 'the event after enabling');
      await sleep(300);
      expect(receiver.requests.map((r) => r.headers['webhook-id'])).toEqual([
        receiver.requests[0].headers['webhook-id'],
        later,
      ]);
    });

    it('no success for 3 days disables the endpoint (failing) and records webhook_endpoint.disabled', async () => {
      const watcher = await new Receiver().start();
      try {
        const endpoint = await create(a.admin, {});
        const watching = await create(a.admin, { url: watcher.url, events: ['webhook_endpoint.*'] });
        receiver.fallback = { status: 500 };
        await emit(t, a.admin.organizationId);
        await pump(t);
        await until(() => receiver.requests.length === 1, 'the first failure');
        await until(
          async () => (await deliveries(a.admin, endpoint.id))[0]?.responseStatus === 500,
          'recorded',
        );
        t.clock.advance(3 * DAY - MINUTE);
        await emit(t, a.admin.organizationId);
        await pump(t);
        await until(() => receiver.requests.length >= 3, 'more failures');
        expect((await endpointOf(a.admin, endpoint.id)).status).toBe('enabled'); // under 3 days
        t.clock.advance(MINUTE);
        await emit(t, a.admin.organizationId);
        await pump(t);
        await until(async () => (await endpointOf(a.admin, endpoint.id)).status === 'disabled', 'disabled');
        const disabled = await endpointOf(a.admin, endpoint.id);
        expect(disabled).toMatchObject({ status: 'disabled', disabledReason: 'failing' });
        const pending = await sql(
          t,
          "select count(*)::int as n from webhook_delivery where endpoint_id = ? and status = 'pending'",
          [endpoint.id],
        );
        expect(pending).toEqual([{ n: 0 }]);

        const log = await api(t, a.admin.key).get('/v1/events?types=webhook_endpoint.*').expect(200);
        const events = (log.body.data as { type: string; subject: { id: string } }[]).filter(
          (e) => e.subject.id === endpoint.id,
        );
        expect(events).toEqual([
          expect.objectContaining({
            type: 'webhook_endpoint.disabled',
            subject: { type: 'webhook_endpoint', id: endpoint.id },
            actor: { type: 'system', id: null, userId: null },
            data: {
              object: disabled,
              previous: { status: 'enabled', disabledReason: null },
            },
            changedFields: ['status', 'disabledReason'],
          }),
        ]);
        // the other endpoint, subscribed to webhook_endpoint.*, receives it
        await pump(t);
        await until(() => watcher.requests.length === 1, 'the disabled event delivered');
        expect(verify(watching.secret, watcher.requests[0])).toMatchObject({
          type: 'webhook_endpoint.disabled',
          subject: { id: endpoint.id },
        });
      } finally {
        await watcher.stop();
      }
    });

    it('rotation: two signatures for 24 hours, each verifiable; then the new one alone', async () => {
      const endpoint = await create(a.admin, {});
      const rotated = await api(t, a.admin.key)
        .post(`/v1/webhook-endpoints/${endpoint.id}/rotate-secret`)
        .expect(200);
      expect(rotated.body).toEqual({
        secret: expect.stringMatching(SECRET),
        previousSecretValidUntil: new Date(t.clock.now().getTime() + DAY).toISOString(),
      });
      expect(rotated.body.secret).not.toBe(endpoint.secret);
      await emit(t, a.admin.organizationId);
      await pump(t);
      await until(() => receiver.requests.length === 1, 'the delivery');
      const signatures = String(receiver.requests[0].headers['webhook-signature']).split(' ');
      expect(signatures).toHaveLength(2);
      expect(verify(rotated.body.secret as string, receiver.requests[0])).toBeTruthy();
      expect(verify(endpoint.secret, receiver.requests[0])).toBeTruthy();
      // each signature on its own verifies with its own secret
      for (const [signature, secret] of [
        [signatures[0], rotated.body.secret as string],
        [signatures[1], endpoint.secret],
      ]) {
        expect(
          verify(secret, {
            ...receiver.requests[0],
            headers: { ...receiver.requests[0].headers, 'webhook-signature': signature },
          }),
        ).toBeTruthy();
      }

      t.clock.advance(DAY + 1_000);
      await emit(t, a.admin.organizationId);
      await pump(t);
      await until(() => receiver.requests.length === 2, 'the later delivery');
      expect(String(receiver.requests[1].headers['webhook-signature']).split(' ')).toHaveLength(1);
      expect(verify(rotated.body.secret as string, receiver.requests[1])).toBeTruthy();
      expect(() => verify(endpoint.secret, receiver.requests[1])).toThrow();
    });

    it('test sends a ping to this endpoint only, now, and answers its delivery', async () => {
      const endpoint = await create(a.admin, {});
      const bystander = await new Receiver().start();
      try {
        await create(a.admin, { url: bystander.url, events: ['*'] });
        const res = await api(t, a.admin.key).post(`/v1/webhook-endpoints/${endpoint.id}/test`).expect(200);
        expect(Object.keys(res.body).sort()).toEqual(DELIVERY_FIELDS);
        expect(res.body).toMatchObject({
          eventType: 'ping',
          attempt: 1,
          status: 'succeeded',
          responseStatus: 200,
          nextAttemptAt: null,
        });
        expect(receiver.requests).toHaveLength(1);
        const ping = verify(endpoint.secret, receiver.requests[0]);
        expect(ping).toMatchObject({
          id: res.body.eventId,
          type: 'ping',
          subject: { type: 'webhook_endpoint', id: endpoint.id },
          data: { object: { id: endpoint.id, url: endpoint.url } },
        });
        expect(JSON.stringify(ping)).not.toContain('whsec_');
        await pump(t);
        await sleep(300);
        expect(bystander.requests).toEqual([]);

        receiver.replies = [{ status: 500 }];
        const failed = await api(t, a.admin.key)
          .post(`/v1/webhook-endpoints/${endpoint.id}/test`)
          .expect(200);
        expect(failed.body).toMatchObject({
          eventType: 'ping',
          status: 'pending',
          responseStatus: 500,
          nextAttemptAt: new Date(t.clock.now().getTime() + 5_000).toISOString(),
        });
      } finally {
        await bystander.stop();
      }
    });

    it('deliveries: offset paging (limit 1-100), newest first, the last 30 days', async () => {
      const endpoint = await create(a.admin, {});
      for (let i = 0; i < 3; i++) {
        await emit(t, a.admin.organizationId);
        t.clock.advance(1_000);
      }
      await pump(t);
      await until(() => receiver.requests.length === 3, 'three deliveries');
      const base = `/v1/webhook-endpoints/${endpoint.id}/deliveries`;
      const first = await api(t, a.admin.key).get(`${base}?limit=2`).expect(200);
      expect(first.body).toMatchObject({ hasMore: true, nextOffset: 2 });
      expect(first.body.data).toHaveLength(2);
      const second = await api(t, a.admin.key).get(`${base}?limit=2&offset=2`).expect(200);
      expect(second.body).toMatchObject({ hasMore: false, nextOffset: null });
      const all = [...first.body.data, ...second.body.data] as DeliveryBody[];
      expect(all.map((d) => d.createdAt)).toEqual([...all.map((d) => d.createdAt)].sort().reverse());
      expectValidation(await api(t, a.admin.key).get(`${base}?limit=0`), 'limit');
      expectValidation(await api(t, a.admin.key).get(`${base}?limit=101`), 'limit');
      expectValidation(await api(t, a.admin.key).get(`${base}?offset=-1`), 'offset');
      t.clock.advance(31 * DAY);
      expect((await api(t, a.admin.key).get(base).expect(200)).body).toEqual({
        data: [],
        hasMore: false,
        nextOffset: null,
      });
      const { deleted } = await t.get(WebhookDispatcher).purge(t.clock.now());
      expect(deleted).toBeGreaterThanOrEqual(3);
    });
  });
});

/** A resolver the test steers: a host's addresses change between creation and delivery (rebinding). */
class SteeredResolver extends OutboundResolver {
  readonly hosts = new Map<string, ResolvedAddress[]>();
  override async resolve(hostname: string): Promise<ResolvedAddress[]> {
    return this.hosts.get(hostname) ?? super.resolve(hostname);
  }
}

describe('Webhooks without OUTBOUND_ALLOW_PRIVATE', () => {
  let t: TestApp;
  let a: Agency;
  const resolver = new SteeredResolver();

  beforeAll(async () => {
    t = await TestApp.start({
      env: { LOG_LEVEL: 'silent' },
      overrides: [{ provide: OutboundResolver, useValue: resolver }],
    });
    a = await t.seed.agency('Private Agency');
  });
  afterAll(() => t.stop());

  it('refuses hosts resolving to private, loopback, link-local or metadata addresses (400 at url)', async () => {
    resolver.hosts.set('internal.example.test', [{ address: '10.1.2.3', family: 4 }]);
    resolver.hosts.set('mixed.example.test', [
      { address: '93.184.215.14', family: 4 },
      { address: '192.168.1.10', family: 4 },
    ]);
    for (const url of [
      'https://127.0.0.1/hook',
      'https://localhost/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[fd00:ec2::254]/hook',
      'https://[::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://10.0.0.1/hook',
      'https://172.16.5.4/hook',
      'https://192.168.0.1/hook',
      'https://100.64.0.1/hook',
      'https://[fe80::1]/hook',
      'https://0.0.0.0/hook',
      'https://2130706433/hook',
      'https://0x7f000001/hook',
      'https://0177.0.0.1/hook',
      'https://127.1/hook',
      'https://[::ffff:7f00:1]/hook',
      'https://foo.localhost/hook',
      'https://internal.example.test/hook',
      'https://mixed.example.test/hook',
      'http://localhost:8080/hook', // http needs WEBHOOK_ALLOW_INSECURE too
    ]) {
      const res = await api(t, a.admin.key)
        .post('/v1/webhook-endpoints')
        .send({ url, events: ['*'] });
      expectValidation(res, 'url');
    }
    const made = await api(t, a.admin.key)
      .post('/v1/webhook-endpoints')
      .send({ url: 'https://93.184.215.14/hook', events: ['*'] })
      .expect(201);
    // a change of url is checked the same way
    expectValidation(
      await api(t, a.admin.key)
        .patch(`/v1/webhook-endpoints/${made.body.id}`)
        .send({ url: 'https://169.254.169.254/latest' }),
      'url',
    );
    expect(
      (await api(t, a.admin.key).get(`/v1/webhook-endpoints/${made.body.id}`).expect(200)).body.url,
    ).toBe('https://93.184.215.14/hook');
  });

  it('checks the address again at each delivery: a host now resolving to a private address gets nothing', async () => {
    const receiver = await new Receiver().start();
    try {
      resolver.hosts.set('hooks.example.test', [{ address: '93.184.215.14', family: 4 }]);
      const created = await api(t, a.admin.key)
        .post('/v1/webhook-endpoints')
        .send({ url: `https://hooks.example.test:${receiver.port}/hook`, events: ['note.*'] })
        .expect(201);
      resolver.hosts.set('hooks.example.test', [{ address: '127.0.0.1', family: 4 }]);
      await emit(t, a.admin.organizationId);
      await pump(t);
      const [delivery] = await until(async () => {
        const res = await api(t, a.admin.key)
          .get(`/v1/webhook-endpoints/${created.body.id}/deliveries`)
          .expect(200);
        return (res.body.data as DeliveryBody[])[0]?.attempt === 1 ? res.body.data : null;
      }, 'the refused attempt');
      expect(delivery).toMatchObject({
        attempt: 1,
        status: 'pending',
        responseStatus: null,
        error: 'address not allowed',
      });
      expect(receiver.requests).toEqual([]);
    } finally {
      await receiver.stop();
    }
  });
});
