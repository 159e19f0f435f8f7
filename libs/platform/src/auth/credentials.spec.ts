import type { IncomingHttpHeaders } from 'node:http';
import { API_KEY_PATTERN, extractCredential, kindOf } from './credentials';

const API_KEY = `svc_pk_${'A1b2C3d4'.repeat(4)}`;
const OTHER_API_KEY = `svc_pk_${'Z9y8X7w6'.repeat(4)}`;
const SESSION = 'svc_ses_0123456789abcdef';

describe('kindOf', () => {
  it.each([
    [API_KEY, 'apiKey'],
    [`svc_int_${'0a'.repeat(16)}`, 'integration'],
    ['svc_mcp_abcdef', 'mcp'],
    ['svc_oat_abcdef', 'mcp'],
    [SESSION, 'session'],
    ['sk_live_abcdef', 'unknown'],
    ['svc_abcdef', 'unknown'],
    ['SVC_PK_' + 'a'.repeat(32), 'unknown'],
    ['', 'unknown'],
  ])('%s is %s', (secret, kind) => {
    expect(kindOf(secret)).toBe(kind);
  });

  it('tells the kind by prefix only; the key format is checked later', () => {
    expect(kindOf('svc_pk_short')).toBe('apiKey');
    expect(API_KEY_PATTERN.test('svc_pk_short')).toBe(false);
    expect(API_KEY_PATTERN.test(API_KEY)).toBe(true);
  });
});

describe('extractCredential', () => {
  const extract = (headers: IncomingHttpHeaders) => extractCredential(headers);

  it('reads Authorization: Bearer', () => {
    expect(extract({ authorization: `Bearer ${API_KEY}` })).toEqual({ kind: 'apiKey', secret: API_KEY });
    expect(extract({ authorization: `Bearer ${SESSION}` })).toEqual({ kind: 'session', secret: SESSION });
  });

  it('reads Authorization: ApiKey', () => {
    expect(extract({ authorization: `ApiKey ${API_KEY}` })).toEqual({ kind: 'apiKey', secret: API_KEY });
  });

  it('reads X-API-Key', () => {
    expect(extract({ 'x-api-key': API_KEY })).toEqual({ kind: 'apiKey', secret: API_KEY });
  });

  it('treats the scheme name case-insensitively', () => {
    expect(extract({ authorization: `bearer ${API_KEY}` })?.secret).toBe(API_KEY);
    expect(extract({ authorization: `APIKEY ${API_KEY}` })?.secret).toBe(API_KEY);
  });

  it('tells the kind of an unknown secret as unknown', () => {
    expect(extract({ authorization: 'Bearer not-ours' })).toEqual({ kind: 'unknown', secret: 'not-ours' });
  });

  describe('precedence: Authorization ApiKey, then X-API-Key, then Bearer', () => {
    it('prefers X-API-Key over Bearer', () => {
      expect(extract({ authorization: `Bearer ${SESSION}`, 'x-api-key': API_KEY })).toEqual({
        kind: 'apiKey',
        secret: API_KEY,
      });
    });

    it('prefers Authorization: ApiKey over X-API-Key', () => {
      expect(extract({ authorization: `ApiKey ${API_KEY}`, 'x-api-key': OTHER_API_KEY })?.secret).toBe(
        API_KEY,
      );
    });

    it('falls back to Bearer when X-API-Key is blank', () => {
      expect(extract({ authorization: `Bearer ${API_KEY}`, 'x-api-key': '   ' })?.secret).toBe(API_KEY);
    });
  });

  describe('no credential', () => {
    it.each<[string, IncomingHttpHeaders]>([
      ['no headers', {}],
      ['an empty Authorization', { authorization: '' }],
      ['a scheme without a secret', { authorization: 'Bearer' }],
      ['another scheme', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
      ['a secret without a scheme', { authorization: API_KEY }],
      ['three parts', { authorization: `Bearer ${API_KEY} extra` }],
      ['an empty X-API-Key', { 'x-api-key': '' }],
    ])('%s → null', (_label, headers) => {
      expect(extract(headers)).toBeNull();
    });

    it('never reads the query string, whatever the request line says', () => {
      // Only headers are looked at: a request object carrying the key in its URL has no credential.
      const request = {
        url: `/v1/me?api_key=${API_KEY}&access_token=${API_KEY}&key=${API_KEY}`,
        query: { api_key: API_KEY, access_token: API_KEY, key: API_KEY },
        headers: { host: 'localhost', referer: `https://x.example/?api_key=${API_KEY}` },
      };
      expect(extract(request.headers)).toBeNull();
    });
  });
});
