import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { Queue } from 'bullmq';
import { v7 as uuidv7 } from 'uuid';
import { Webhook } from 'standardwebhooks';
import { JobName, Outbox, QueueName, queueJobId, SYSTEM_ACTOR } from '@app/platform';
import { startWorker, type ChildApp } from '../api-child';
import { Agency, api, sql, TestApp } from '../fixtures';

/**
 * Webhook delivery run by apps/worker on BullMQ (REDIS_URL): a worker killed (SIGKILL) in the middle
 * of an attempt leaves the delivery due again after its lease; the next worker delivers it. The
 * API here only produces (REDIS_URL set: no in-process pump).
 */

const REDIS_URL = 'redis://127.0.0.1:6379';
const ENV = { WEBHOOK_ALLOW_INSECURE: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(probe: () => Promise<T | undefined | null | false> | T, what: string, ms: number) {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe('webhook delivery in apps/worker', () => {
  const queuePrefix = `test-webhooks-${process.pid}-${Date.now()}`;
  let t: TestApp;
  let a: Agency;
  let server: Server;
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const hanging: ServerResponse[] = [];
  let hangNext = true;
  const workers: ChildApp[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        if (hangNext) {
          hangNext = false;
          hanging.push(res); // never answered: the worker dies waiting
          return;
        }
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    t = await TestApp.start({ env: { ...ENV, REDIS_URL, LOG_LEVEL: 'silent' } });
    a = await t.seed.agency('Worker Hooks Agency');
  });

  afterAll(async () => {
    for (const worker of workers) worker.signal('SIGKILL');
    for (const res of hanging) res.destroy();
    await new Promise((done) => server.close(done));
    const queue = new Queue(QueueName.Maintenance, { connection: { url: REDIS_URL }, prefix: queuePrefix });
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
    await t.stop();
  });

  it('a worker killed mid-delivery: the next worker delivers the event after the lease', async () => {
    const url = `http://localhost:${(server.address() as { port: number }).port}/hook`;
    const created = await api(t, a.admin.key)
      .post('/v1/webhook-endpoints')
      .send({ url, events: ['note.*'] })
      .expect(201);
    const first = await startWorker(queuePrefix, { ...ENV, REDIS_URL }, 120_000);
    workers.push(first);

    const eventId = `evt_${uuidv7()}`;
    await t.orm.em.fork().transactional(async (em) => {
      t.get(Outbox).record(em, {
        id: eventId,
        organizationId: a.admin.organizationId,
        type: 'note.created',
        occurredAt: new Date(),
        subject: { type: 'note', id: uuidv7(), leadId: 1 },
        recordVersion: 1,
        actor: SYSTEM_ACTOR,
        data: { object: { content: 'Called' } },
      });
    });

    await until(() => received.length === 1, 'the first attempt', 15_000);
    first.signal('SIGKILL');
    await first.exited.catch(() => undefined);
    const [held] = await sql<{ status: string; attempt: number }>(
      t,
      'select status, attempt from webhook_delivery where event_id = ?',
      [eventId],
    );
    expect(held).toEqual({ status: 'pending', attempt: 1 }); // claimed, never recorded
    // the relay's job for the delivery: BullMQ jobId `<endpointId>:<eventId>`
    const queue = new Queue(QueueName.Maintenance, { connection: { url: REDIS_URL }, prefix: queuePrefix });
    try {
      const job = await queue.getJob(queueJobId(`${created.body.id}:${eventId}`));
      expect(job).toMatchObject({ name: JobName.WebhooksDeliver, data: { deliveryId: expect.any(String) } });
    } finally {
      await queue.close();
    }

    const second = await startWorker(queuePrefix, { ...ENV, REDIS_URL }, 120_000);
    workers.push(second);
    await until(() => received.length === 2, 'the delivery after the restart', 40_000);
    const [done] = await until(
      async () => {
        const rows = await sql<{ status: string; attempt: number; response_status: number }>(
          t,
          'select status, attempt, response_status from webhook_delivery where event_id = ?',
          [eventId],
        );
        return rows[0]?.status === 'succeeded' ? rows : null;
      },
      'the delivery recorded',
      10_000,
    );
    expect(done).toEqual({ status: 'succeeded', attempt: 2, response_status: 200 });
    expect(received.map((r) => r.headers['webhook-id'])).toEqual([eventId, eventId]);
    const secretRow = await sql<{ secret: string }>(t, 'select secret from webhook_endpoint where id = ?', [
      created.body.id,
    ]);
    expect(
      new Webhook(secretRow[0].secret).verify(received[1].body, {
        'webhook-id': String(received[1].headers['webhook-id']),
        'webhook-timestamp': String(received[1].headers['webhook-timestamp']),
        'webhook-signature': String(received[1].headers['webhook-signature']),
      }),
    ).toMatchObject({ id: eventId, type: 'note.created' });
    second.signal('SIGTERM');
    await second.exited.catch(() => undefined);
  }, 90_000);
});
