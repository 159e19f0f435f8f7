import { connect, type Socket } from 'node:net';
import { Queue } from 'bullmq';
import { QueueName } from '@app/platform';
import { startApi, startWorker, statusOf } from '../api-child';
import { count, TestApp, uniqueEmail } from '../fixtures';

const REDIS_URL = 'redis://127.0.0.1:6379';
const CONCURRENT = 100;
/** Each body goes out in this many pieces, one every TRICKLE_MS (about 1.5 s in all). */
const PIECES = 5;
const TRICKLE_MS = 300;

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

  it('answers every request in flight with Connection: close, refuses new connections, exits 0', async () => {
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
      answered: CONCURRENT,
      cut: 0,
      durationMs: expect.any(Number),
    });
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
