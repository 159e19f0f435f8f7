import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { Queue } from 'bullmq';
import { DRAIN_ACCEPT_MS, QueueName } from '@app/platform';
import { startApi, startWorker, statusOf } from '../api-child';
import { count, sql, TestApp, uniqueEmail } from '../fixtures';

const REDIS_URL = 'redis://127.0.0.1:6379';
const CONCURRENT = 100;
/** Each body goes out in this many pieces, one every TRICKLE_MS (about 1.5 s in all). */
const PIECES = 5;
const TRICKLE_MS = 300;
const RUN = Date.now().toString(36);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * A keep-alive connection that sends `POST /v1/leads` headers at once and its body in pieces;
 * `answer` resolves with what came back once the server closed the connection.
 */
function slowCreate(port: number, key: string, lead: Record<string, string>) {
  const body = Buffer.from(JSON.stringify(lead));
  const socket: Socket = connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  const received: Buffer[] = [];
  socket.on('data', (chunk) => received.push(chunk));
  const answer = new Promise<Answer>((resolve) => {
    socket.on('error', () => undefined); // a reset shows as no answer ('close' follows)
    socket.on('close', () => {
      const text = Buffer.concat(received).toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...headerLines] = head.split('\r\n');
      const headers = Object.fromEntries(
        headerLines.map((line) => [
          line.slice(0, line.indexOf(':')).toLowerCase(),
          line.slice(line.indexOf(':') + 1).trim(),
        ]),
      );
      const payload = rest.join('\r\n\r\n');
      resolve({
        status: Number(statusLine.split(' ')[1] ?? 0),
        headers,
        body: payload ? JSON.parse(payload) : null,
      });
    });
  });
  const opened = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const pieceSize = Math.ceil(body.length / PIECES);
  return {
    answer,
    async sendHeaders() {
      await opened;
      socket.write(
        `POST /v1/leads HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${key}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: keep-alive\r\n\r\n`,
      );
    },
    sendPiece(i: number) {
      socket.write(body.subarray(i * pieceSize, (i + 1) * pieceSize));
    },
  };
}

/** One request of the mixed load: when it was sent, and what came back (status 0: no answer). */
interface Sent {
  kind: 'me' | 'list' | 'create';
  sentAt: number;
  status: number;
  /** The network error, or the body of a 4xx or 5xx answer. */
  error?: string;
  connection?: string;
  /** A failed request went out on a kept-alive connection (the server closed it under the request). */
  reused?: boolean;
  email?: string;
}

/**
 * A closed loop of `workers` keep-alive connections sending the operator's mix (2 × `GET /v1/me`,
 * 2 × `GET /v1/leads`, 1 × idempotent `POST /v1/leads` in every 5) until the server refuses a
 * connection, which ends that worker.
 */
async function mixedLoad(port: number, key: string, workers: number): Promise<Sent[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: workers });
  const sent: Sent[] = [];
  const once = (kind: Sent['kind'], n: number) =>
    new Promise<Sent>((resolve) => {
      const email = kind === 'create' ? uniqueEmail(`load${n}`) : undefined;
      const body = email
        ? JSON.stringify({
            firstName: 'Load',
            lastName: `N${n}`,
            email,
            phoneNumber: `+3462${String(n).padStart(7, '0')}`,
            crmStatus: 'lead',
          })
        : undefined;
      const record: Sent = { kind, sentAt: performance.now(), status: 0, email };
      const req = request(
        {
          agent,
          host: '127.0.0.1',
          port,
          method: body ? 'POST' : 'GET',
          path: { me: '/v1/me', list: '/v1/leads?limit=25', create: '/v1/leads' }[kind],
          headers: {
            authorization: `Bearer ${key}`,
            ...(body
              ? {
                  'content-type': 'application/json',
                  'content-length': Buffer.byteLength(body),
                  'idempotency-key': `load-${RUN}-${n}`,
                }
              : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            record.status = res.statusCode ?? 0;
            if (record.status >= 400) record.error = Buffer.concat(chunks).toString('utf8');
            record.connection = res.headers.connection;
            resolve(record);
          });
        },
      );
      req.on('error', (err: NodeJS.ErrnoException) => {
        record.error = err.code ?? err.message;
        record.reused = req.reusedSocket;
        resolve(record);
      });
      req.end(body);
    });
  let n = 0;
  const deadline = performance.now() + 20_000;
  const worker = async () => {
    while (performance.now() < deadline) {
      const i = n++;
      const answer = await once((['me', 'me', 'list', 'list', 'create'] as const)[i % 5], i);
      sent.push(answer);
      if (answer.error === 'ECONNREFUSED') return;
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
  agent.destroy();
  return sent;
}

/** Whether a new TCP connection is accepted on `port`. */
const accepts = (port: number) =>
  new Promise<string>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('accepted');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
  });

describe('graceful drain of the API (SIGTERM)', () => {
  let t: TestApp;
  let key: string;
  let keyId: string;

  beforeAll(async () => {
    t = await TestApp.start();
    await t.resetRows();
    const admin = await t.seed.organization();
    ({ key, id: keyId } = await t.seed.apiKey(admin, ['crm:read', 'crm:write']));
  });

  afterAll(() => t.stop());

  it('answers every request in flight with Connection: close, refuses new connections after the accept window, exits 0', async () => {
    const api = await startApi();
    const leads = Array.from({ length: CONCURRENT }, (_, i) => ({
      firstName: 'Drain',
      lastName: `Number${i}`,
      email: uniqueEmail(`drain${i}`),
      phoneNumber: `+3461000${String(i).padStart(4, '0')}`,
      crmStatus: 'lead',
    }));
    const calls = leads.map((lead) => slowCreate(api.port, key, lead));
    await Promise.all(calls.map((call) => call.sendHeaders()));
    calls.forEach((call) => call.sendPiece(0));
    // answered after the 100 headers were written, so the server has read them: all are in flight
    expect(await statusOf(api.port, '/health/live')).toBe(200);

    api.signal('SIGTERM');
    const stopping = await api.line('API stopping');
    expect(stopping).toMatchObject({ signal: 'SIGTERM', inFlight: CONCURRENT });
    // a connection the kernel took before the signal is still served, told the process is not
    // ready (a load balancer sends nothing new); then the door closes
    expect(await accepts(api.port)).toBe('accepted');
    expect(await statusOf(api.port, '/health/ready')).toBe(503);
    await sleep(DRAIN_ACCEPT_MS + 100);
    expect(await accepts(api.port)).toBe('ECONNREFUSED');

    for (let piece = 1; piece < PIECES; piece++) {
      await sleep(TRICKLE_MS);
      calls.forEach((call) => call.sendPiece(piece));
    }
    const answers = await Promise.all(calls.map((call) => call.answer));
    const exit = await api.exited;

    expect(answers.map((a) => a.status)).toEqual(leads.map(() => 201));
    expect(answers.map((a) => a.headers.connection)).toEqual(leads.map(() => 'close'));
    expect(answers.map((a) => (a.body as { lead: { email: string } }).lead.email)).toEqual(
      leads.map((lead) => lead.email),
    );
    expect(await count(t, `select count(*) as n from leads where first_name = 'Drain'`)).toBe(CONCURRENT);
    // the key's usage is flushed after the drain, so the answers sent during it are counted too
    expect(await count(t, 'select usage_count as n from api_keys where id = ?', [keyId])).toBe(CONCURRENT);
    expect({ status: exit.status, signal: exit.signal }).toEqual({ status: 0, signal: null });
    // exit 0 is the process's own word that it stopped inside its 10 s deadline
    expect(api.lines().find((line) => line.msg === 'API stopped')).toMatchObject({
      signal: 'SIGTERM',
      inFlight: CONCURRENT,
      answered: CONCURRENT + 1, // and the readiness probe sent during the drain
      cut: 0,
      durationMs: expect.any(Number),
    });
  });

  it('under 48 connections of mixed load: every request sent before the signal is answered, later ones get Connection: close or a refused connection', async () => {
    await sql(t, 'update api_keys set rate_limit_per_minute = 1000000 where id = ?', [keyId]);
    const api = await startApi();
    const load = mixedLoad(api.port, key, 48);
    await sleep(1_500);
    const signalledAt = performance.now();
    api.signal('SIGTERM');
    const sent = await load;
    const exit = await api.exited;

    const before = sent.filter((r) => r.sentAt < signalledAt);
    const after = sent.filter((r) => r.sentAt >= signalledAt);
    expect(before.length).toBeGreaterThan(100);
    // nothing the server received was dropped: before the signal every request has its answer...
    expect(before.filter((r) => r.status === 0).map((r) => `${r.kind}: ${r.error}`)).toEqual([]);
    expect(before.filter((r) => r.status >= 400).map((r) => r.error)).toEqual([]);
    // ...and after it a request is answered, with Connection: close, or its new connection refused
    expect(after.filter((r) => r.status === 0 && r.reused).map((r) => r.error)).toEqual([]);
    expect(after.filter((r) => r.status === 0 && !['ECONNREFUSED', 'ECONNRESET'].includes(r.error!))).toEqual(
      [],
    );
    expect(after.filter((r) => r.status > 0 && r.connection !== 'close')).toEqual([]);
    const created = sent.filter((r) => r.status === 201).map((r) => r.email);
    expect(await count(t, 'select count(*) as n from leads where email in (?)', [created])).toBe(
      created.length,
    );
    expect({ status: exit.status, signal: exit.signal }).toEqual({ status: 0, signal: null });
    expect(api.lines().find((line) => line.msg === 'API stopped')).toMatchObject({ cut: 0 });
  });

  it('exits at once on a second signal, without waiting for the drain', async () => {
    const api = await startApi();
    const call = slowCreate(api.port, key, {
      firstName: 'Never',
      lastName: 'Finished',
      email: uniqueEmail('never'),
    });
    await call.sendHeaders();
    expect(await statusOf(api.port, '/health/live')).toBe(200);

    api.signal('SIGTERM');
    await api.line('API stopping');
    api.signal('SIGTERM');
    const exit = await api.exited;

    expect({ status: exit.status, signal: exit.signal }).toEqual({ status: 1, signal: null });
    expect(api.lines().map((line) => line.msg)).toEqual(
      expect.arrayContaining(['API stopping', 'second signal: exiting now']),
    );
    expect(api.lines().map((line) => line.msg)).not.toContain('API stopped');
    expect((await call.answer).status).toBe(0); // the body never came: no answer, the connection dropped
  });
});

describe('graceful stop of the worker (SIGTERM)', () => {
  const queuePrefix = `test-drain-${process.pid}-${Date.now()}`;

  afterAll(async () => {
    const queue = new Queue(QueueName.Maintenance, { connection: { url: REDIS_URL }, prefix: queuePrefix });
    await queue.obliterate({ force: true });
    await queue.close();
  });

  it('closes its BullMQ worker, queues, pool and Redis, and exits 0', async () => {
    const worker = await startWorker(queuePrefix, { REDIS_URL });

    worker.signal('SIGTERM');
    const exit = await worker.exited;

    expect({ status: exit.status, signal: exit.signal }).toEqual({ status: 0, signal: null });
    expect(worker.lines().find((line) => line.msg === 'worker stopping')).toMatchObject({
      signal: 'SIGTERM',
    });
    expect(worker.lines().find((line) => line.msg === 'worker stopped')).toMatchObject({
      signal: 'SIGTERM',
      durationMs: expect.any(Number),
    });
  });
});
