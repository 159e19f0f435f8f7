import { createServer as createHttpServer, type Server } from 'node:http';
import {
  createServer as createTcpServer,
  type AddressInfo,
  type Server as TcpServer,
  type Socket,
} from 'node:net';
import { AppConfig } from '../../config/app-config';
import { OutboundError, OutboundHttp, type OutboundOptions } from './outbound-http';
import {
  OutboundConnector,
  OutboundResolver,
  type ConnectTarget,
  type ResolvedAddress,
} from './outbound-ports';

/** Public-looking names and addresses played by local servers (the guard stays on). */
const PUBLIC = '93.184.215.14';

class PlayedResolver extends OutboundResolver {
  readonly answers = new Map<string, ResolvedAddress[] | (() => ResolvedAddress[])>();
  readonly asked: string[] = [];
  override async resolve(hostname: string): Promise<ResolvedAddress[]> {
    this.asked.push(hostname);
    const answer = this.answers.get(hostname);
    if (!answer) throw new Error('ENOTFOUND');
    return typeof answer === 'function' ? answer() : answer;
  }
}

/** Connects PUBLIC to 127.0.0.1 (same port); records every address asked for. */
class PlayedConnector extends OutboundConnector {
  readonly targets: string[] = [];
  override connect(target: ConnectTarget): Socket {
    this.targets.push(target.address);
    return super.connect(target.address === PUBLIC ? { ...target, address: '127.0.0.1' } : target);
  }
}

const config = (allowPrivate: boolean) => AppConfig.fromEnv({ OUTBOUND_ALLOW_PRIVATE: String(allowPrivate) });

const listen = async <T extends Server | TcpServer>(server: T): Promise<number> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

const reasonOf = async (work: Promise<unknown>): Promise<string> => {
  try {
    await work;
  } catch (err) {
    if (err instanceof OutboundError) return err.reason;
    throw err;
  }
  return 'no error';
};

const readAll = async (body: AsyncIterable<Buffer>): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
};

describe('OutboundHttp', () => {
  const resolver = new PlayedResolver();
  const connector = new PlayedConnector();
  const guarded = new OutboundHttp(resolver, connector, config(false));
  const open = new OutboundHttp(resolver, connector, config(true));
  const hits: string[] = [];
  let port = 0;
  let banner = 0;
  const servers: (Server | TcpServer)[] = [];
  const GET: OutboundOptions = { timeoutMs: 2_000, maxBytes: 1024, maxRedirects: 3 };

  beforeAll(async () => {
    const web = createHttpServer((req, res) => {
      hits.push(req.url ?? '');
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/to') {
        res.writeHead(302, { location: url.searchParams.get('u') ?? '/' }).end();
      } else if (url.pathname.startsWith('/hop/')) {
        const left = Number(url.pathname.slice(5));
        res.writeHead(301, { location: left > 0 ? `/hop/${left - 1}` : '/ok' }).end();
      } else if (url.pathname === '/ok') {
        res.end(`ok ${req.method} ${req.headers.host}`);
      } else if (url.pathname === '/secret-500') {
        res.writeHead(500, { 'content-type': 'text/plain' }).end('root password is hunter2');
      } else if (url.pathname === '/big') {
        res.end('x'.repeat(2048));
      } else if (url.pathname === '/declared-big') {
        res.writeHead(200, { 'content-length': '999999' }).write('x');
      } else if (url.pathname === '/slow') {
        res.writeHead(200).write('first');
      } else if (url.pathname === '/silent') {
        // never answers
      } else res.writeHead(404).end();
    });
    port = await listen(web);
    // a service that is not HTTP: it greets with a banner
    const ssh = createTcpServer((socket) => {
      socket.resume(); // reads the request, so it sees the client go
      socket.end('SSH-2.0-OpenSSH_9.6 secret-build\r\n');
    });
    banner = await listen(ssh);
    servers.push(web, ssh);
    resolver.answers.set('allowed.test', [{ address: PUBLIC, family: 4 }]);
    resolver.answers.set('inside.test', [{ address: '127.0.0.1', family: 4 }]);
    resolver.answers.set('mixed.test', [
      { address: PUBLIC, family: 4 },
      { address: '10.0.0.7', family: 4 },
    ]);
  });
  afterAll(async () => {
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    hits.length = 0;
    connector.targets.length = 0;
    resolver.asked.length = 0;
  });

  it('reaches an allowed host, connecting to the address it checked, and reads the answer', async () => {
    const answer = await guarded.request(`http://allowed.test:${port}/ok`, GET);
    expect(answer.status).toBe(200);
    expect(await readAll(answer.body())).toBe(`ok GET allowed.test:${port}`);
    expect(resolver.asked).toEqual(['allowed.test']);
    expect(connector.targets).toEqual([PUBLIC]);
  });

  it.each([
    ['http://127.0.0.1:PORT/ok', 'address not allowed'],
    ['http://2130706433:PORT/ok', 'address not allowed'],
    ['http://0x7f000001:PORT/ok', 'address not allowed'],
    ['http://0177.0.0.1:PORT/ok', 'address not allowed'],
    ['http://127.1:PORT/ok', 'address not allowed'],
    ['http://0.0.0.0:PORT/ok', 'address not allowed'],
    ['http://0:PORT/ok', 'address not allowed'],
    ['http://[::ffff:127.0.0.1]:PORT/ok', 'address not allowed'],
    ['http://[::ffff:7f00:1]:PORT/ok', 'address not allowed'],
    ['http://[::1]:PORT/ok', 'address not allowed'],
    ['http://[::]:PORT/ok', 'address not allowed'],
    ['http://localhost:PORT/ok', 'address not allowed'],
    ['http://app.localhost:PORT/ok', 'address not allowed'],
    ['http://inside.test:PORT/ok', 'address not allowed'],
    ['http://mixed.test:PORT/ok', 'address not allowed'],
    ['http://169.254.169.254/latest/meta-data/', 'address not allowed'],
    ['http://user:pw@allowed.test:PORT/ok', 'credentials not allowed'],
    ['ftp://allowed.test/feed.xml', 'scheme not allowed'],
    ['file:///etc/passwd', 'scheme not allowed'],
    ['gopher://127.0.0.1:PORT/_x', 'scheme not allowed'],
    ['not a url', 'invalid URL'],
    ['http://allowed.test:0/', 'invalid URL'],
    ['http://nowhere.test:PORT/ok', 'could not resolve the host'],
  ])('%s → %s, before any connection', async (raw, reason) => {
    const url = raw.replace('PORT', String(port));
    expect(await reasonOf(guarded.request(url, GET))).toBe(reason);
    expect(await reasonOf(guarded.check(url, 1_000))).toBe(reason);
    expect(connector.targets).toEqual([]);
    expect(hits).toEqual([]);
  });

  it.each([
    'http://127.0.0.1:PORT/ok',
    'http://2130706433:PORT/ok',
    'http://[::ffff:7f00:1]:PORT/ok',
    'http://localhost:PORT/ok',
    'http://inside.test:PORT/ok',
    '/ok?relative-to-a-public-host-is-fine',
  ])('checks a redirect to %s again', async (raw) => {
    const location = raw.replace('PORT', String(port));
    const url = `http://allowed.test:${port}/to?u=${encodeURIComponent(location)}`;
    if (location.startsWith('/')) {
      const answer = await guarded.request(url, GET);
      expect(answer.status).toBe(200);
      answer.discard();
      expect(hits).toEqual([`/to?u=${encodeURIComponent(location)}`, location]);
      return;
    }
    expect(await reasonOf(guarded.request(url, GET))).toBe('address not allowed');
    expect(hits).toEqual([`/to?u=${encodeURIComponent(location)}`]);
  });

  it('follows at most 3 redirects; with none allowed a 3xx is the answer', async () => {
    const three = await guarded.request(`http://allowed.test:${port}/hop/2`, GET);
    expect(await readAll(three.body())).toBe(`ok GET allowed.test:${port}`);
    expect(hits).toEqual(['/hop/2', '/hop/1', '/hop/0', '/ok']);
    hits.length = 0;
    expect(await reasonOf(guarded.request(`http://allowed.test:${port}/hop/3`, GET))).toBe(
      'too many redirects',
    );
    expect(hits).toEqual(['/hop/3', '/hop/2', '/hop/1', '/hop/0']);
    expect(
      await reasonOf(guarded.request(`http://allowed.test:${port}/hop/3`, { ...GET, maxRedirects: 9 })),
    ).toBe('too many redirects');
    const none = await guarded.request(`http://allowed.test:${port}/hop/0`, { ...GET, maxRedirects: 0 });
    expect(none.status).toBe(301);
    none.discard();
  });

  it('refuses a redirect to another scheme', async () => {
    expect(await reasonOf(guarded.request(`http://allowed.test:${port}/to?u=file:///etc/passwd`, GET))).toBe(
      'scheme not allowed',
    );
  });

  it('caps the size (declared or read) and the time; never repeats the far side', async () => {
    expect(
      await reasonOf(readAll((await guarded.request(`http://allowed.test:${port}/big`, GET)).body())),
    ).toBe('too large');
    expect(
      await reasonOf(
        readAll((await guarded.request(`http://allowed.test:${port}/declared-big`, GET)).body()),
      ),
    ).toBe('too large');
    const quick = { ...GET, timeoutMs: 300 };
    const started = Date.now();
    expect(await reasonOf(guarded.request(`http://allowed.test:${port}/silent`, quick))).toBe('timed out');
    expect(
      await reasonOf(readAll((await guarded.request(`http://allowed.test:${port}/slow`, quick)).body())),
    ).toBe('timed out');
    expect(Date.now() - started).toBeLessThan(2_000);
    const failed = await guarded.request(`http://allowed.test:${port}/secret-500`, GET);
    expect(failed.status).toBe(500);
    failed.discard();
    const err = await guarded.request(`http://allowed.test:${banner}/`, GET).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutboundError);
    expect((err as Error).message).toBe('could not connect');
  });

  it('OUTBOUND_ALLOW_PRIVATE lifts the address rule alone', async () => {
    const answer = await open.request(`http://127.0.0.1:${port}/ok`, GET);
    expect(await readAll(answer.body())).toBe(`ok GET 127.0.0.1:${port}`);
    expect(await reasonOf(open.request(`http://u:p@127.0.0.1:${port}/ok`, GET))).toBe(
      'credentials not allowed',
    );
    expect(await reasonOf(open.request(`http://127.0.0.1:${port}/hop/3`, GET))).toBe('too many redirects');
  });
});
