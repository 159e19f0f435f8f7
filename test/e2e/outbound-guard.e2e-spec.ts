import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { OutboundConnector, OutboundResolver, type ConnectTarget, type ResolvedAddress } from '@app/platform';
import { Agency, asSession, expectValidation, SignedIn, sql, TestApp } from '../fixtures';

/**
 * The outbound-request guard as a feed meets it (docs/security/outbound-requests.md), with
 * OUTBOUND_ALLOW_PRIVATE off: a loopback receiver counts what reaches it, and every spelling of an
 * internal address, given at connect, at PATCH or through a redirect from an allowed host, reaches
 * it zero times. The allowed host is a local server too: the test's resolver answers a public
 * address for `allowed.test` and the test's connector routes that address (only it) to 127.0.0.1,
 * so the guard's own rules stay exactly as in production.
 */

const PUBLIC = '93.184.215.14';
const JSONL = readFileSync(join(__dirname, '../fixtures/feeds/feed.jsonl'), 'utf8');

/** Answers what the test sets; counts calls per name. */
class PlayedResolver extends OutboundResolver {
  readonly answers = new Map<string, () => ResolvedAddress[]>();
  readonly asked = new Map<string, number>();
  override async resolve(hostname: string): Promise<ResolvedAddress[]> {
    this.asked.set(hostname, (this.asked.get(hostname) ?? 0) + 1);
    const answer = this.answers.get(hostname);
    if (!answer) throw new Error('ENOTFOUND');
    return answer();
  }
}

/** PUBLIC goes to 127.0.0.1 on the same port; any other address as asked. */
class PlayedConnector extends OutboundConnector {
  readonly targets: string[] = [];
  override connect(target: ConnectTarget): Socket {
    this.targets.push(target.address);
    return super.connect(target.address === PUBLIC ? { ...target, address: '127.0.0.1' } : target);
  }
}

const listen = async (server: Server): Promise<number> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};
const close = (server: Server) => new Promise((resolve) => server.close(resolve));

describe('Outbound guard: feeds never reach inside', () => {
  let t: TestApp;
  let a: Agency;
  const resolver = new PlayedResolver();
  const connector = new PlayedConnector();
  /** What must never be reached: it would answer a good feed. */
  let received = 0;
  const receiver = createServer((_req, res) => {
    received += 1;
    res.end(JSONL);
  });
  /** The allowed host: redirects, hops and a feed. */
  const allowedHits: string[] = [];
  const allowed = createServer((req, res) => {
    allowedHits.push(req.url ?? '');
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/to') res.writeHead(302, { location: url.searchParams.get('u') ?? '/' }).end();
    else if (url.pathname.startsWith('/hop/')) {
      const left = Number(url.pathname.slice(5));
      res.writeHead(307, { location: left > 0 ? `/hop/${left - 1}` : '/feed.jsonl' }).end();
    } else if (url.pathname === '/feed.jsonl') res.end(JSONL);
    else if (url.pathname === '/secret') res.writeHead(503).end('db01.internal:5432 password=hunter2');
    else res.writeHead(404).end('no');
  });
  let receiverPort = 0;
  let allowedPort = 0;
  let feedId = '';

  const as = (who: SignedIn) => ({
    post: (path: string) => asSession(t.http.post(path), who),
    patch: (path: string) => asSession(t.http.patch(path), who),
  });
  const feedPath = () => `/organization/property-feeds/${feedId}`;
  /** Moves the feed out of the in-process periodic job's way (imports here are by hand). */
  const notDue = () =>
    sql(t, `update property_feeds set next_import_at = now() + interval '100 years' where id = ?`, [feedId]);
  const setUrl = async (url: string) => {
    await as(a.admin).patch(feedPath()).send({ url }).expect(200);
    await notDue();
  };
  const importNow = async () => (await as(a.admin).post(`${feedPath()}/import`).expect(200)).body;
  const allowedUrl = (path: string) => `http://allowed.test:${allowedPort}${path}`;

  /** Every spelling of an internal address, to the receiver where there is a port to give. */
  const internal = (): string[] => {
    const p = receiverPort;
    return [
      `http://127.0.0.1:${p}/feed.jsonl`,
      `http://2130706433:${p}/feed.jsonl`,
      `http://0x7f000001:${p}/feed.jsonl`,
      `http://0177.0.0.1:${p}/feed.jsonl`,
      `http://127.1:${p}/feed.jsonl`,
      `http://[::ffff:127.0.0.1]:${p}/feed.jsonl`,
      `http://[::ffff:7f00:1]:${p}/feed.jsonl`,
      `http://localhost:${p}/feed.jsonl`,
      `http://feeds.localhost:${p}/feed.jsonl`,
      `http://0.0.0.0:${p}/feed.jsonl`,
      `http://[::1]:${p}/feed.jsonl`,
      `http://inside.test:${p}/feed.jsonl`, // a name resolving to 127.0.0.1
      `http://mixed.test:${p}/feed.jsonl`, // one public address, one private
      `https://127.0.0.1:${p}/feed.jsonl`,
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/latest/meta-data/',
      'http://10.0.0.1/feed.xml',
      'http://100.64.0.1/feed.xml',
    ];
  };

  beforeAll(async () => {
    receiverPort = await listen(receiver);
    allowedPort = await listen(allowed);
    resolver.answers.set('allowed.test', () => [{ address: PUBLIC, family: 4 }]);
    resolver.answers.set('inside.test', () => [{ address: '127.0.0.1', family: 4 }]);
    resolver.answers.set('mixed.test', () => [
      { address: PUBLIC, family: 4 },
      { address: '192.168.1.20', family: 4 },
    ]);
    t = await TestApp.start({
      env: { LOG_LEVEL: 'silent' },
      overrides: [
        { provide: OutboundResolver, useValue: resolver },
        { provide: OutboundConnector, useValue: connector },
      ],
    });
    a = await t.seed.agency('Guarded Agency');
    const res = await as(a.admin)
      .post('/organization/property-feeds')
      .send({ source: 'jsonfeed', url: allowedUrl('/feed.jsonl') })
      .expect(201);
    feedId = res.body.id;
    await notDue();
  });
  afterAll(async () => {
    await t.stop();
    await close(receiver);
    await close(allowed);
  });

  it('imports from an allowed host, through redirects, connecting to the address it checked', async () => {
    const res = await importNow();
    expect(res.import).toMatchObject({ status: 'ok', created: expect.any(Number) });
    expect(res.import.created).toBeGreaterThan(0);
    await setUrl(allowedUrl('/hop/2'));
    allowedHits.length = 0;
    connector.targets.length = 0;
    expect((await importNow()).import.status).toBe('ok');
    expect(allowedHits).toEqual(['/hop/2', '/hop/1', '/hop/0', '/feed.jsonl']);
    expect(connector.targets).toEqual([PUBLIC, PUBLIC, PUBLIC, PUBLIC]);
    expect(received).toBe(0);
  });

  it('refuses every internal spelling at connect and at PATCH: 400 at url, nothing sent', async () => {
    // the body's URL rule takes some spellings (2130706433) before the guard does
    const refused = {
      path: 'url',
      message: expect.stringMatching(/^(url: address not allowed|url must be an http or https URL)$/),
    };
    for (const url of internal()) {
      const connect = await as(a.admin).post('/organization/property-feeds').send({ source: 'kyero', url });
      expectValidation(connect, 'url');
      expect([url, connect.body.error.details.issues]).toEqual([url, [refused]]);
      const change = await as(a.admin).patch(feedPath()).send({ url });
      expectValidation(change, 'url');
      expect([url, change.body.error.details.issues]).toEqual([url, [refused]]);
    }
    const [feed] = await sql<{ url: string; n: string }>(
      t,
      `select url, (select count(*) from property_feeds where organization_id = ?) n from property_feeds where id = ?`,
      [a.admin.organizationId, feedId],
    );
    expect(feed).toEqual({ url: allowedUrl('/hop/2'), n: '1' });
    expect(received).toBe(0);
  });

  it('refuses every internal spelling reached through a redirect: failed, "address not allowed"', async () => {
    for (const target of internal()) {
      await setUrl(allowedUrl(`/to?u=${encodeURIComponent(target)}`));
      const res = await importNow();
      expect([target, res.import.status, res.import.error]).toEqual([
        target,
        'failed',
        'address not allowed',
      ]);
      expect(res.feed).toMatchObject({ lastStatus: 'failed', lastError: 'address not allowed' });
    }
    expect(received).toBe(0);
  });

  it('checks the name again at every import: one that now resolves inside gets nothing', async () => {
    let inside = false;
    resolver.answers.set('rebinding.test', () => [{ address: inside ? '127.0.0.1' : PUBLIC, family: 4 }]);
    await setUrl(`http://rebinding.test:${receiverPort}/feed.jsonl`);
    inside = true;
    resolver.asked.delete('rebinding.test');
    const res = await importNow();
    expect(res.feed).toMatchObject({ lastStatus: 'failed', lastError: 'address not allowed' });
    expect(resolver.asked.get('rebinding.test')).toBe(1);
    expect(received).toBe(0);
  });

  it('more than 3 redirects, credentials, and the far side never in lastError', async () => {
    await setUrl(allowedUrl('/hop/3'));
    expect((await importNow()).feed).toMatchObject({ lastStatus: 'failed', lastError: 'too many redirects' });
    await setUrl(allowedUrl('/secret'));
    expect((await importNow()).feed).toMatchObject({
      lastStatus: 'failed',
      lastError: 'The feed URL answered HTTP 503.',
    });
    // a name that does not resolve now is taken (each import checks it); its import says so
    await setUrl(`http://nowhere.test:${receiverPort}/`);
    expect((await importNow()).feed.lastError).toBe(
      'The feed URL could not be read (could not resolve the host).',
    );
    const credentials = await as(a.admin)
      .patch(feedPath())
      .send({ url: `http://user:secret@allowed.test:${allowedPort}/feed.jsonl` });
    expectValidation(credentials, 'url');
    expect(received).toBe(0);
  });
});
