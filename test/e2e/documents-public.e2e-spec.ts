import { Logger } from '@nestjs/common';
import type { Response } from 'supertest';
import {
  Agency,
  expectError,
  MINUTE,
  newShareToken,
  seedDocument,
  seedGoneLink,
  sql,
  TestApp,
  unsafeParts,
  XSS_CORPUS,
} from '../fixtures';

/**
 * The public page of a shared document (issue 15 item 5, INTERFACES.md "Documents" and "Public
 * pages"): every share state, the headers, HTML or JSON errors by `Accept`, 60 calls a minute per
 * IP, and an XSS corpus rendered inert (checked on a parsed DOM).
 */

const HEADERS = {
  'content-security-policy':
    "default-src 'none';img-src https: data:;style-src 'unsafe-inline';frame-ancestors 'none';base-uri 'none';form-action 'none'",
  'x-robots-tag': 'noindex',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

const expectPageHeaders = (res: Response) => {
  for (const [name, value] of Object.entries(HEADERS)) expect(res.headers[name]).toBe(value);
};

/** An HTML error page with `status`; the security headers too. */
const expectHtmlError = (res: Response, status: number) => {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(res.text).toMatch(/^<!doctype html>/);
  expectPageHeaders(res);
};

describe('GET /d/{token}: the public page of a document', () => {
  let t: TestApp;
  let a: Agency;

  const page = (token: string, accept?: string) => {
    const req = t.http.get(`/d/${token}`);
    return accept ? req.set('Accept', accept) : req;
  };

  beforeAll(async () => {
    t = await TestApp.start();
    a = await t.seed.agency('Casa Agency');
  });
  afterAll(() => t.stop());
  // the per-IP window is the clock's: each test starts with a fresh minute
  beforeEach(() => t.clock.advance(2 * MINUTE));

  it('a live share → 200 HTML with the escaped title, the rendered body and every header; no credential', async () => {
    const { token } = await seedDocument(t, a.member, {
      title: 'Flat <b>42</b> & garden',
      body: '# Rooms\n\n| room | m² |\n|---|--:|\n| living | 30 |\n\nSee https://example.com/flat and **call**.',
      share: {},
    });
    const res = await page(token!).expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expectPageHeaders(res);
    expect(res.text).toContain('<title>Flat &lt;b&gt;42&lt;/b&gt; &amp; garden</title>');
    expect(res.text).toContain('<h1>Flat &lt;b&gt;42&lt;/b&gt; &amp; garden</h1>');
    expect(res.text).toContain('<h1>Rooms</h1>');
    expect(res.text).toContain('<td style="text-align:right">30</td>');
    expect(res.text).toContain(
      '<a href="https://example.com/flat" rel="nofollow noopener noreferrer">https://example.com/flat</a>',
    );
    expect(res.text).toContain('<strong>call</strong>');
    expect(unsafeParts(res.text)).toEqual([]);
    // HEAD answers the same headers
    const head = await t.http.head(`/d/${token}`).expect(200);
    expectPageHeaders(head);
  });

  it('a whiteboard shows its outline as a list; pdf and file a "file not available" note', async () => {
    const board = await seedDocument(t, a.member, {
      title: 'Board',
      kind: 'whiteboard',
      body: '- Kitchen\n- <img src=x onerror=alert(1)>\n',
      share: {},
    });
    const boardPage = await page(board.token!).expect(200);
    expect(boardPage.text).toContain('<li>Kitchen</li>');
    expect(boardPage.text).toContain('<li>&lt;img src=x onerror=alert(1)&gt;</li>');
    expect(unsafeParts(boardPage.text)).toEqual([]);
    for (const kind of ['pdf', 'file'] as const) {
      const file = await seedDocument(t, a.member, {
        title: 'Floor plan',
        kind,
        body: '',
        file: { fileName: 'plan.pdf', mimeType: 'application/pdf', blobKey: 'k' },
        share: {},
      });
      const res = await page(file.token!).expect(200);
      expect(res.text).toContain('File not available on this page (plan.pdf).');
    }
  });

  it('revoked → 410; expired (through the clock) → 410 and recorded as revoked at the expiry', async () => {
    const revoked = await seedDocument(t, a.member, { share: { revokedAt: t.clock.now() } });
    expectHtmlError(await page(revoked.token!), 410);
    expect((await page(revoked.token!)).text).toContain('This link is no longer available');

    const expiresAt = new Date(t.clock.now().getTime() + 60 * MINUTE);
    const expiring = await seedDocument(t, a.member, { share: { expiresAt } });
    await page(expiring.token!).expect(200);
    t.clock.advance(61 * MINUTE);
    expectHtmlError(await page(expiring.token!), 410);
    const [row] = await sql<{ visibility: string; share_revoked_at: Date }>(
      t,
      'select visibility, share_revoked_at from documents where id = ?',
      [expiring.id],
    );
    expect(row.visibility).toBe('organization');
    expect(new Date(row.share_revoked_at).toISOString()).toBe(expiresAt.toISOString());
  });

  it('deleted (the row gone, its link kept as gone) or replaced → 410; unknown → 404', async () => {
    const deleted = await seedDocument(t, a.member, { share: {} });
    await page(deleted.token!).expect(200);
    await sql(t, 'delete from documents where id = ?', [deleted.id]);
    await seedGoneLink(t, a.member.organizationId, deleted.token!);
    expectHtmlError(await page(deleted.token!), 410);

    const replaced = newShareToken();
    await seedGoneLink(t, a.member.organizationId, replaced);
    expectHtmlError(await page(replaced), 410);

    expectHtmlError(await page(newShareToken()), 404);
    expectHtmlError(await page('not a token!'), 404);
    expectHtmlError(await page('x'.repeat(300)), 404);
  });

  it('errors are the JSON envelope when Accept prefers JSON (NOT_FOUND, GONE), HTML otherwise', async () => {
    const revoked = await seedDocument(t, a.member, { share: { revokedAt: t.clock.now() } });
    expectError(await page(newShareToken(), 'application/json'), 404, 'NOT_FOUND');
    expectError(await page(revoked.token!, 'application/json'), 410, 'GONE');
    expectError(await page(revoked.token!, 'text/html;q=0.5, application/json'), 410, 'GONE');
    expectHtmlError(await page(revoked.token!, 'text/html, application/json;q=0.9'), 410);
    expectHtmlError(await page(revoked.token!, '*/*'), 410);
    // a live page is HTML whatever Accept says
    const live = await seedDocument(t, a.member, { share: {} });
    const res = await page(live.token!, 'application/json').expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('logs a refused page by its route template, never the token', async () => {
    const revoked = await seedDocument(t, a.member, { share: { revokedAt: t.clock.now() } });
    const spy = jest.spyOn(Logger.prototype, 'log');
    try {
      await page(revoked.token!).expect(410);
      const lines = spy.mock.calls.map((call) => JSON.stringify(call));
      expect(lines.some((line) => line.includes('/d/:token'))).toBe(true);
      expect(lines.filter((line) => line.includes(revoked.token!))).toEqual([]);
    } finally {
      spy.mockRestore();
    }
  });

  it('a body sent to the page is refused (400, as an HTML page)', async () => {
    const res = await t.http.get(`/d/${newShareToken()}`).set('Content-Type', 'application/json').send('{}');
    expectHtmlError(res, 400);
  });

  it('an agency without an active plan: its pages answer 404 until the plan is back', async () => {
    const other = await t.seed.agency('Lapsed Agency');
    const { token } = await seedDocument(t, other.admin, { share: {} });
    await page(token!).expect(200);
    await t.seed.plan(other.admin, false);
    expectHtmlError(await page(token!), 404);
    await t.seed.plan(other.admin, true);
    await page(token!).expect(200);
  });

  it('renders an XSS corpus inert: no script, iframe, style, form, no on* attribute, only http(s)/mailto URLs', async () => {
    // the checker itself sees what it must refuse
    expect(unsafeParts('<p><a href="javascript:x" rel="nofollow noopener noreferrer">x</a></p>')).not.toEqual(
      [],
    );
    expect(unsafeParts('<p><img src="x" onerror="y"></p>')).toHaveLength(2);
    expect(unsafeParts('<p><a href="https://ok.example">x</a></p>')).toEqual(['a without rel: (none)']);
    const failures: Record<string, string[]> = {};
    for (const source of XSS_CORPUS) {
      const { token } = await seedDocument(t, a.member, { title: source, body: source, share: {} });
      const res = await page(token!).expect(200);
      const problems = unsafeParts(res.text);
      if (problems.length) failures[source] = problems;
    }
    expect(failures).toEqual({});
    // all at once too
    const { token } = await seedDocument(t, a.member, { body: XSS_CORPUS.join('\n\n'), share: {} });
    expect(unsafeParts((await page(token!).expect(200)).text)).toEqual([]);
  });

  it('60 calls a minute per IP across the pages, then 429 (HTML, or RATE_LIMITED as JSON); a new minute frees it', async () => {
    const { token } = await seedDocument(t, a.member, { share: {} });
    for (let i = 0; i < 59; i += 1) await page(token!).expect(200);
    // the 60th on an unknown link: the limit counts every public page call
    expectHtmlError(await page(newShareToken()), 404);
    const html = await page(token!);
    expectHtmlError(html, 429);
    expect(html.headers['retry-after']).toMatch(/^\d+$/);
    const json = await page(token!, 'application/json');
    expectError(json, 429, 'RATE_LIMITED');
    // without TRUST_PROXY_HOPS a forged X-Forwarded-For changes nothing
    expectHtmlError(await page(token!).set('X-Forwarded-For', '198.51.100.1'), 429);
    // API routes are not counted against the IP
    const v1 = await t.http.get('/v1/me').auth(a.member.key, { type: 'bearer' });
    expect(v1.status).toBe(200);
    t.clock.advance(MINUTE);
    await page(token!).expect(200);
  });

  it('behind a proxy (TRUST_PROXY_HOPS=1) each client IP of X-Forwarded-For has its own minute', async () => {
    const proxied = await TestApp.start({ env: { TRUST_PROXY_HOPS: '1' } });
    try {
      const { token } = await seedDocument(proxied, a.member, { share: {} });
      const from = (ip: string) => proxied.http.get(`/d/${token}`).set('X-Forwarded-For', ip);
      for (let i = 0; i < 60; i += 1) await from('203.0.113.7').expect(200);
      expectHtmlError(await from('203.0.113.7'), 429);
      await from('203.0.113.8').expect(200);
    } finally {
      await proxied.stop();
    }
  });
});
