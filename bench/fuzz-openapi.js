'use strict';
// Generated requests over the OpenAPI document (docs/security/headers-and-input.md "The fuzzer"):
// the built API on a fresh database, seeded with an agency, its people, keys, leads and listings;
// then N requests, every operation in turn, each with a credential of every kind (none, sessions,
// API keys of an admin and a member in their three spellings, another agency's key, integration
// and MCP keys, revoked and made-up keys), parameters, query, headers and bodies drawn with
// fast-check from the schema, half of them then pushed outside their types (wrong types, huge and
// negative numbers, NUL, long strings, arrays for objects and the reverse, deep nesting, bad JSON,
// odd content types and encodings). Counts answers by status; every 5xx (and any request that got
// no answer) is written with its method, route template and the request, to replay it.
// Run: npm run build && node bench/fuzz-openapi.js. Never in CI.
// Env: FUZZ_REQUESTS (200000), FUZZ_CONCURRENCY (12), FUZZ_SEED (random), FUZZ_OUT (a directory;
// default .data/fuzz/<time>), FUZZ_LEADS (300), FUZZ_ONLY (a regexp over "METHOD /template"),
// FUZZ_TRACE=1 (every request and its answer's status and code into trace.ndjson).
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const zlib = require('node:zlib');
const fc = require('fast-check');
const { createBenchDatabase, runOps, sql, startApi, ROOT } = require('./lib');

const TOTAL = Number(process.env.FUZZ_REQUESTS ?? 200_000);
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 12);
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const LEADS = Number(process.env.FUZZ_LEADS ?? 300);
const ONLY = process.env.FUZZ_ONLY ? new RegExp(process.env.FUZZ_ONLY) : null;
const TRACE = process.env.FUZZ_TRACE === '1';
const OUT = path.resolve(
  process.env.FUZZ_OUT ?? path.join(ROOT, '.data', 'fuzz', new Date().toISOString().replace(/[:.]/g, '-')),
);
const BATCH = 64; // requests drawn at once per operation
const CHECK_EVERY = 500; // credentials checked (and replaced when a request ended one) this often
const CLIENT_TIMEOUT_MS = 20_000;

const log = (...parts) => console.error(`[fuzz ${new Date().toISOString().slice(11, 19)}]`, ...parts);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- HTTP

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY + 4 });

/**
 * One request: `body` a Buffer or string sent as is, or a value sent as JSON. Resolves
 * `{status, headers, text}` or `{status: 0, error}`; never rejects.
 */
function send(base, { method, path: target, headers = {}, body }) {
  return new Promise((resolve) => {
    let payload;
    if (body === undefined) payload = undefined;
    else if (Buffer.isBuffer(body) || typeof body === 'string') payload = Buffer.from(body);
    else payload = Buffer.from(JSON.stringify(body));
    const all = { ...headers };
    if (payload !== undefined && all['content-length'] === undefined) all['content-length'] = payload.length;
    let done = false;
    const finish = (result) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(result);
    };
    let req;
    try {
      req = http.request(
        { agent, host: new URL(base).hostname, port: new URL(base).port, method, path: target, headers: all },
        (res) => {
          const chunks = [];
          let size = 0;
          res.on('data', (c) => {
            size += c.length;
            if (size < 2_000_000) chunks.push(c);
          });
          res.on('end', () =>
            finish({
              status: res.statusCode,
              headers: res.headers,
              text: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          res.on('error', (err) => finish({ status: 0, error: String(err) }));
        },
      );
    } catch (err) {
      // the client itself refused it (an invalid header character, say): not a server answer
      return resolve({ status: -1, error: String(err) });
    }
    const timer = setTimeout(() => {
      req.destroy(new Error('client timeout'));
    }, CLIENT_TIMEOUT_MS);
    req.on('error', (err) => finish({ status: 0, error: String(err) }));
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

const json = (res) => {
  try {
    return JSON.parse(res.text);
  } catch {
    return undefined;
  }
};

async function call(base, method, target, { token, body, headers = {} } = {}) {
  const res = await send(base, {
    method,
    path: target,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      'x-forwarded-for': randomAddress(),
      ...headers,
    },
    body,
  });
  return { ...res, body: json(res) };
}

let addressCounter = 0;
/** A documentation-range address of its own for each setup call (per-address limits). */
const randomAddress = () => {
  addressCounter++;
  return `198.18.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
};

// ---------------------------------------------------------------- setup: people, keys, data

/**
 * The credentials of every kind and the real ids a request may name. A request may end its
 * own credential (sign-out, a key revoked by id): `check` replaces what no longer opens its door.
 */
class World {
  constructor(base, agency) {
    this.base = base;
    this.agency = agency;
    this.pools = new Map(); // pool name → Set of ids
    this.protected = new Set(); // ids a request must never name (the credentials' own)
    this.creds = {};
    this.spare = { admin: [], member: [] };
  }

  add(pool, id) {
    if (id === undefined || id === null || this.protected.has(String(id))) return;
    let set = this.pools.get(pool);
    if (!set) this.pools.set(pool, (set = new Set()));
    if (set.size < 400) set.add(id);
  }

  pick(pool, n) {
    const set = this.pools.get(pool);
    if (!set || set.size === 0) return undefined;
    const values = [...set];
    return values[n % values.length];
  }

  async signIn(person) {
    const res = await call(this.base, 'POST', '/auth/sign-in', {
      body: { email: person.email, password: person.password },
    });
    if (res.status !== 200) throw new Error(`sign-in ${person.email}: ${res.status} ${res.text}`);
    return res.body.token;
  }

  async setup() {
    const { admin, members } = this.agency;
    const member = members[0];
    this.people = { admin, member };
    for (const [role, person] of Object.entries(this.people)) {
      for (let i = 0; i < 12; i++) this.spare[role].push(await this.signIn(person));
      this.protected.add(person.userId);
    }
    const adminSession = this.spare.admin.pop();
    const memberSession = this.spare.member.pop();
    this.creds = {
      none: null,
      'session-admin': adminSession,
      'session-member': memberSession,
      'key-admin': admin.apiKey,
      'key-member': member.apiKey,
      'key-admin-header': admin.apiKey,
      'key-member-scheme': member.apiKey,
      'key-other-agency': null,
      integration: null,
      mcp: null,
      'mcp-member': null,
      revoked: null,
      'made-up': 'svc_pk_' + 'x'.repeat(32),
      'made-up-int': 'svc_int_' + '0'.repeat(32),
      'made-up-mcp': 'svc_mcp_' + 'A'.repeat(32),
    };
    // another agency (its admin's key: a request naming our ids must find nothing)
    const other = await call(this.base, 'POST', '/auth/sign-up', {
      body: {
        organizationName: 'Other Fuzz Agency',
        email: `other.${Date.now()}@fuzz.example`,
        password: 'Ocelot-Harbour-Quartz-91!',
        firstName: 'Olga',
        lastName: 'Other',
      },
    });
    if (other.status !== 201) throw new Error(`sign-up: ${other.status} ${other.text}`);
    this.otherSession = other.body.token;
    this.creds['key-other-agency'] = await this.newApiKey(this.otherSession);
    // a revoked key
    const revoked = await call(this.base, 'POST', '/api-keys', {
      token: adminSession,
      body: { name: 'revoked', scopes: ['crm:read'] },
    });
    await call(this.base, 'DELETE', `/api-keys/${revoked.body.id}`, { token: adminSession });
    this.creds.revoked = revoked.body.key;
    this.integrationKeys = [];
    for (let i = 0; i < 8; i++) this.integrationKeys.push(await this.newIntegrationKey(adminSession, i));
    this.creds.integration = this.integrationKeys[0];
    this.creds.mcp = await this.newMcpKey(adminSession, ALL_SCOPES);
    this.creds['mcp-member'] = await this.newMcpKey(memberSession, MEMBER_SCOPES);
    // the seeded people's own keys are credentials too: never named by a request
    const keys = await call(this.base, 'GET', '/api-keys', { token: adminSession });
    for (const row of Array.isArray(keys.body) ? keys.body : []) this.protected.add(row.id);
    // the budgets are raised: the run is about answers, not limits (429s still come, counted)
    await sql(this.dbUrl, 'update api_keys set rate_limit_per_minute = 100000000');
    await sql(this.dbUrl, 'update organizations set search_rate_per_minute = 1000000').catch(() => undefined);
    await this.harvestAll();
  }

  async newApiKey(session, scopes) {
    const res = await call(this.base, 'POST', '/api-keys', {
      token: session,
      body: { name: `fuzz ${Date.now()}`, ...(scopes ? { scopes } : {}) },
    });
    if (res.status !== 201) throw new Error(`POST /api-keys: ${res.status} ${res.text}`);
    this.protected.add(res.body.id);
    return res.body.key;
  }

  async newIntegrationKey(session, i) {
    const res = await call(this.base, 'POST', '/integration-keys', {
      token: session,
      body: { name: `fuzz ${i} ${Date.now()}`, connector: `fuzz-${i}` },
    });
    if (res.status !== 201) throw new Error(`POST /integration-keys: ${res.status} ${res.text}`);
    this.protected.add(res.body.id);
    return res.body.key;
  }

  async newMcpKey(session, scopes) {
    const res = await call(this.base, 'POST', '/mcp-keys', {
      token: session,
      body: { name: `fuzz ${Date.now()}`, scopes },
    });
    if (res.status !== 201) throw new Error(`POST /mcp-keys: ${res.status} ${res.text}`);
    this.protected.add(res.body.id);
    return res.body.key;
  }

  /** Real ids from the list routes of the admin's key and session. */
  async harvestAll() {
    const key = this.creds['key-admin'];
    const session = this.creds['session-admin'];
    const lists = [
      ['/v1/leads?limit=100', key],
      ['/v1/tasks?limit=100', key],
      ['/v1/deals?limit=100', key],
      ['/v1/members', key],
      ['/v1/teams', key],
      ['/v1/tags', key],
      ['/v1/brochures', key],
      ['/v1/documents', key],
      ['/v1/queues', key],
      ['/v1/viewings', key],
      ['/v1/collections', key],
      ['/v1/open-houses', key],
      ['/v1/webhook-endpoints', key],
      ['/organization/agents', session],
      ['/organization/property-feeds', session],
      ['/organization/teams', session],
      ['/tags', session],
    ];
    for (const [target, token] of lists) {
      const res = await call(this.base, 'GET', target, { token });
      if (res.status === 200) this.harvest(target.split('?')[0], res.body);
    }
    const search = await call(this.base, 'POST', '/properties/search', {
      token: key,
      body: { limit: 100 },
    });
    if (search.status === 200) this.harvest('/properties', search.body);
    const leads = [...(this.pools.get('leadId') ?? [])];
    for (const leadId of leads.slice(0, 10)) {
      for (const sub of ['notes', 'calls', 'offers', 'documents']) {
        const res = await call(this.base, 'GET', `/v1/leads/${leadId}/${sub}`, { token: key });
        if (res.status === 200) this.harvest(`/v1/${sub}`, res.body);
      }
    }
    const sizes = [...this.pools].map(([name, set]) => `${name} ${set.size}`);
    log(`real ids: ${sizes.join(', ')}`);
  }

  /** Ids in an answer of `template` (a collection path), added to the pools its name implies. */
  harvest(template, body) {
    const segments = template.split('/').filter((s) => s && !s.startsWith('{') && s !== 'v1');
    const noun = segments[segments.length - 1];
    if (!noun || body === null || typeof body !== 'object') return;
    const pool = poolOf(noun);
    const objects = [];
    const visit = (value, depth) => {
      if (depth > 2 || value === null || typeof value !== 'object') return;
      if (Array.isArray(value)) return value.slice(0, 200).forEach((v) => visit(v, depth + 1));
      objects.push(value);
      for (const child of Object.values(value))
        if (child && typeof child === 'object') visit(child, depth + 1);
    };
    visit(Array.isArray(body.data) ? body.data : body, 0);
    for (const object of objects) {
      if (object.id !== undefined) this.add(pool, object.id);
      for (const [field, value] of Object.entries(object)) {
        const m = /^(.*)Id$/.exec(field);
        if (m && (typeof value === 'string' || typeof value === 'number')) this.add(poolOf(m[1]), value);
      }
      if (typeof object.slug === 'string') this.add('slug', object.slug);
      for (const value of Object.values(object)) if (typeof value === 'string') this.harvestUrl(value);
    }
  }

  /** The public links in an answer: a share's token, a brochure's slug, a media file's parts. */
  harvestUrl(text) {
    let m;
    if ((m = /\/d\/([A-Za-z0-9_-]+)$/.exec(text))) this.add('token', m[1]);
    else if ((m = /\/b\/([a-z0-9-]+)$/.exec(text))) this.add('slug', m[1]);
    else if ((m = /\/media\/([0-9a-f-]{36})\/([^/?#]+)$/.exec(text))) {
      this.add('mediaId', m[1]);
      this.add('fileId', m[2]);
    } else if ((m = /\/media\/([0-9a-f-]{36})\.(\w+)$/.exec(text))) {
      this.add('mediaId', m[1]);
      this.add('extId', m[2]);
    }
  }

  /**
   * Each credential opens its door still: a request may have signed a session out or revoked a
   * key by id (not one of ours: their ids are never drawn, but a key listed by the API is).
   */
  async check() {
    const alive = async (cred, target) =>
      cred && (await call(this.base, 'GET', target, { token: cred })).status !== 401;
    for (const role of ['admin', 'member']) {
      const name = `session-${role}`;
      if (!(await alive(this.creds[name], '/auth/session'))) {
        this.creds[name] = this.spare[role].pop() ?? (await this.signIn(this.people[role]));
        log(`replaced ${name}`);
      }
    }
    for (const [name, role] of [
      ['key-admin', 'admin'],
      ['key-member', 'member'],
    ]) {
      if (!(await alive(this.creds[name], '/v1/me'))) {
        this.creds[name] = await this.newApiKey(this.creds[`session-${role}`]);
        await sql(this.dbUrl, 'update api_keys set rate_limit_per_minute = 100000000');
        log(`replaced ${name}`);
      }
    }
    this.creds['key-admin-header'] = this.creds['key-admin'];
    this.creds['key-member-scheme'] = this.creds['key-member'];
  }

  pickIntegrationKey(n) {
    return this.integrationKeys[n % this.integrationKeys.length];
  }
}

const ALL_SCOPES = [
  'crm:read',
  'crm:write',
  'properties:read',
  'properties:write',
  'media:write',
  'sources:read',
  'brochures:read',
  'brochures:write',
  'documents:read',
  'documents:write',
];
const MEMBER_SCOPES = ALL_SCOPES.filter((s) => s !== 'properties:write' && s !== 'media:write');

/** The pool a path parameter or an `…Id` field draws from. */
const ALIASES = {
  lead: 'leadId',
  leads: 'leadId',
  otherLead: 'leadId',
  collaboratorLead: 'leadId',
  user: 'userId',
  users: 'userId',
  member: 'userId',
  members: 'userId',
  assignee: 'userId',
  agentUser: 'userId',
  hostUser: 'userId',
  attendeeUser: 'userId',
  propertyListing: 'listingId',
  owner: 'userId',
  property: 'listingId',
  properties: 'listingId',
  listing: 'listingId',
  listings: 'listingId',
  agents: 'agentId',
  agent: 'agentId',
};
function poolOf(noun) {
  if (ALIASES[noun]) return ALIASES[noun];
  const singular = noun
    .replace(/ies$/, 'y')
    .replace(/s$/, '')
    .replace(/-([a-z])/g, (_, c) => c.toUpperCase());
  return ALIASES[singular] ?? `${singular}Id`;
}

/** The pool of path parameter `name` in `template`: `{id}` is named by the segment before it. */
function poolOfParam(template, name) {
  if (name === 'slug' || name === 'token') return name;
  if (name !== 'id' && name !== 'externalId') return poolOf(name.replace(/Ids?$/, ''));
  const segments = template.split('/');
  const i = segments.indexOf(`{${name}}`);
  const before = segments
    .slice(0, i)
    .reverse()
    .find((s) => s && !s.startsWith('{') && s !== 'v1');
  return name === 'externalId' ? `external:${before}` : poolOf(before ?? 'thing');
}

// ---------------------------------------------------------------- the document

function loadOperations(doc) {
  const ops = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const method of ['get', 'put', 'post', 'patch', 'delete']) {
      const op = item[method];
      if (!op) continue;
      const name = `${method.toUpperCase()} ${template}`;
      if (ONLY && !ONLY.test(name)) continue;
      const description = op.description ?? '';
      const credential = /\*\*Public\*\*/.test(description)
        ? 'public'
        : /\*\*Integration key\*\*/.test(description)
          ? 'integration'
          : /\*\*MCP key\*\*/.test(description)
            ? 'mcp'
            : /\*\*Session token\*\*/.test(description)
              ? 'session'
              : 'apiKey';
      const parameters = (op.parameters ?? []).map((p) => resolveRef(doc, p));
      const content = op.requestBody ? (resolveRef(doc, op.requestBody).content ?? {}) : {};
      ops.push({
        name,
        method: method.toUpperCase(),
        template,
        credential,
        adminOnly: /\*\*Admin only\*\*/.test(description),
        pathParams: parameters.filter((p) => p.in === 'path'),
        queryParams: parameters.filter((p) => p.in === 'query'),
        headerParams: parameters.filter((p) => p.in === 'header'),
        jsonSchema: content['application/json']?.schema,
        multipartSchema: content['multipart/form-data']?.schema,
        bodyRequired: Boolean(op.requestBody?.required),
      });
    }
  }
  return ops;
}

function resolveRef(doc, node) {
  let n = node;
  let guard = 0;
  while (n && n.$ref && guard++ < 20) {
    n = n.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((o, k) => o?.[k], doc);
  }
  return n ?? {};
}

// ---------------------------------------------------------------- arbitraries

/** A placeholder resolved against the pools at send time (the pools grow during the run). */
const fromPool = (pool, fallback) =>
  fc.tuple(fc.nat(), fallback).map(([n, alt]) => ({ $pool: pool, n, alt }));

const HUGE_NUMBERS = [
  2147483647, 2147483648, -2147483649, 4294967296, 9007199254740991, 9007199254740993, 9223372036854775807,
  9223372036854775808, 18446744073709551616, 1e20, 1e308, -1e308, 5e-324, -0, -1, 0, 1.5, 0.1, -99999999999,
];
const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '%00',
  '%',
  '..',
  '../../../etc/passwd',
  'NaN',
  'Infinity',
  '-Infinity',
  'null',
  'undefined',
  'true',
  '1e3',
  '0x10',
  '-0',
  '99999999999999999999',
  '9223372036854775808',
  '2147483648',
  '-1',
  '1.5',
  '2024-02-30',
  '2024-13-01T00:00:00Z',
  '275760-09-13T00:00:00.001Z',
  '+275760-09-13T00:00:00.000Z',
  '-271821-04-20T00:00:00.000Z',
  '0000-01-01T00:00:00Z',
  '1970-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  'not-a-date',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '<script>alert(1)</script>',
  "' or 1=1 --",
  '\\',
  '"',
  '{"a":1}',
  '[]',
  '\u202e\u0301\ufeff',
  '😀'.repeat(50),
  'x'.repeat(256),
  'x'.repeat(5_001),
  'y'.repeat(100_001),
  'http://127.0.0.1:1/',
  'http://169.254.169.254/latest/meta-data/',
  'file:///etc/passwd',
  'javascript:alert(1)',
  'mailto:a@b',
  '#zzzzzz',
  'Europe/Nowhere',
  'en_US.UTF-8',
  'a@b',
  '@',
  '+34 600 000 000',
  '+999999999999999999999',
];

function deep(levels, makeArray) {
  let v = makeArray ? [] : {};
  for (let i = 0; i < levels; i++) v = makeArray ? [v] : { a: v };
  return v;
}

/** A value outside (or at the edges of) whatever type a field has. */
const hostileValue = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HUGE_NUMBERS) },
  { weight: 5, arbitrary: fc.constantFrom(...ODD_STRINGS) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      null,
      true,
      false,
      [],
      {},
      [null],
      [[]],
      [{}],
      { $pool: 'leadId', n: 0, alt: 1 },
      { __proto__: null, constructor: { prototype: { polluted: 1 } } },
      JSON.parse('{"__proto__": {"polluted": 1}}'),
      { toString: 'x', valueOf: 1 },
      { lat: 1, lon: 2 },
      { northEast: { lat: 1, lon: 2 }, southWest: { lat: 0, lon: 0 } },
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(deep(40, true), deep(40, false), deep(31, false)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      Array.from({ length: 10_001 }, (_, i) => i),
      Array(1001).fill('x'),
    ),
  },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  {
    weight: 2,
    arbitrary: fc.oneof(
      fc.integer(),
      fc.double({ noNaN: true }),
      fc.bigInt().map((b) => Number(b)),
    ),
  },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom(...HUGE_NUMBERS, ...ODD_STRINGS), { maxLength: 5 }) },
);

/** Text outside what a path or query parameter takes (encoded as sent). */
const hostileText = fc.oneof(
  fc.constantFrom(
    '0',
    '-1',
    '1e3',
    '1.5',
    '00001',
    '+1',
    ' 1',
    '0x1f',
    '99999999999999999999',
    '9223372036854775808',
    '9223372036854775807',
    '2147483648',
    '18446744073709551616',
    'NaN',
    'Infinity',
    'null',
    'abc',
    '%00',
    'a%00b',
    '%ZZ',
    '%E0%A4%A',
    '%C0%AE%C0%AE',
    '%2e%2e',
    '%2F',
    '%F0%9F%98%80',
    '%ED%A0%80',
    'x'.repeat(300),
    'x'.repeat(8000),
    '00000000-0000-0000-0000-000000000000',
    '00000000-0000-0000-0000-00000000000g',
    'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
    '{id}',
    '[]',
    'true',
    '..',
    'a.b',
    '2024-02-30T00:00:00Z',
    '275760-09-13T00:00:00.001Z',
  ),
  fc.string({ maxLength: 30 }).map(encodeURIComponent),
  fc.integer().map(String),
);

/** A valid-ish value for `schema` (min/max, enums, formats, required fields), deep at most 6. */
function validArb(doc, schema, depth = 0, field = '') {
  schema = resolveRef(doc, schema);
  if (depth > 6) return fc.constant(null);
  if (schema.allOf) {
    const merged = { type: 'object', properties: {}, required: [] };
    for (const part of schema.allOf.map((s) => resolveRef(doc, s))) {
      Object.assign(merged.properties, part.properties ?? {});
      merged.required.push(...(part.required ?? []));
      if (part.type && part.type !== 'object') return validArb(doc, part, depth + 1, field);
    }
    return validArb(doc, merged, depth, field);
  }
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives) return fc.oneof(...alternatives.map((s) => validArb(doc, s, depth + 1, field)));
  let arb = baseArb(doc, schema, depth, field);
  const idPool = idPoolOf(field);
  if (idPool && (schema.type === 'string' || schema.type === 'integer' || schema.type === 'number'))
    arb = fc.oneof({ weight: 3, arbitrary: fromPool(idPool, arb) }, { weight: 1, arbitrary: arb });
  if (schema.type === 'array' && idPool)
    arb = fc.oneof(
      { weight: 3, arbitrary: fc.array(fromPool(idPool, fc.constant(1)), { minLength: 1, maxLength: 3 }) },
      { weight: 1, arbitrary: arb },
    );
  if (schema.nullable) arb = fc.option(arb, { nil: null, freq: 6 });
  return arb;
}

/** `leadId`, `assigneeIds`, `propertyId`: the pool such a field names. */
function idPoolOf(field) {
  const m = /^(.+?)Ids?$/.exec(field);
  return m ? poolOf(m[1]) : null;
}

function baseArb(doc, schema, depth, field) {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return stringArb(schema);
    case 'integer': {
      const min =
        schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -10);
      const max = schema.maximum ?? Math.max(min + 1000, 1000);
      return fc.oneof(
        fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31 - 1) }),
        fc.constantFrom(min, Math.min(max, Number.MAX_SAFE_INTEGER)),
      );
    }
    case 'number': {
      const min = schema.minimum ?? -1000;
      const max = schema.maximum ?? 1_000_000;
      return fc.oneof(
        fc.double({ min, max, noNaN: true, noDefaultInfinity: true }),
        fc.integer({ min: Math.ceil(Math.max(min, -1e9)), max: Math.floor(Math.min(max, 1e9)) }),
      );
    }
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const items = validArb(doc, schema.items ?? {}, depth + 1, field);
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.min(schema.maxItems ?? minLength + 4, minLength + 4);
      return schema.uniqueItems
        ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
        : fc.array(items, { minLength, maxLength });
    }
    case 'object':
    case undefined: {
      const properties = schema.properties ?? {};
      const names = Object.keys(properties);
      if (names.length === 0) {
        if (schema.additionalProperties && typeof schema.additionalProperties === 'object')
          return fc.dictionary(
            fc.string({ minLength: 1, maxLength: 8 }),
            validArb(doc, schema.additionalProperties, depth + 1),
            { maxKeys: 3 },
          );
        return type === 'object' ? fc.constant({}) : fc.jsonValue({ maxDepth: 2 });
      }
      const record = {};
      for (const name of names) record[name] = validArb(doc, properties[name], depth + 1, name);
      return sparseRecord(
        record,
        (schema.required ?? []).filter((r) => r in record),
      );
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/**
 * An object with its required fields and a few of its optional ones (every optional field at once
 * would make nearly every draw invalid somewhere, and the routes' rules past validation unreached).
 */
function sparseRecord(record, required) {
  const optional = Object.keys(record).filter((name) => !required.includes(name));
  return fc
    .tuple(fc.subarray(optional, { maxLength: Math.min(optional.length, 4) }), fc.record(record))
    .map(([chosen, full]) => {
      const out = {};
      for (const name of Object.keys(record))
        if (required.includes(name) || chosen.includes(name)) out[name] = full[name];
      return out;
    });
}

function stringArb(schema) {
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? Math.max(minLength, 40);
  const sized = fc.string({ minLength, maxLength: Math.min(maxLength, minLength + 40) });
  switch (schema.format) {
    case 'uuid':
      return fc.uuid();
    case 'date-time':
      return fc
        .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString());
    case 'date':
      return fc
        .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case 'email':
      return fc.emailAddress();
    case 'uri':
    case 'url':
      return fc.webUrl();
    case 'binary':
      return fc.constant('');
    default:
      break;
  }
  if (typeof schema.example === 'string' && !schema.enum) {
    // the document's own example (a date, a zone, a source): often the only shape a rule takes
    return fc.oneof(
      { weight: 1, arbitrary: fc.constant(schema.example) },
      { weight: 2, arbitrary: stringArb({ ...schema, example: undefined }) },
    );
  }
  if (schema.pattern) {
    try {
      return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= maxLength);
    } catch {
      // a pattern fast-check cannot draw from: plain strings
    }
  }
  return fc.oneof(
    { weight: 4, arbitrary: sized },
    { weight: 1, arbitrary: fc.constant('x'.repeat(maxLength)) },
  );
}

/** Every node of a JSON value with its path, for a mutation to replace or drop one. */
function nodesOf(value, prefix = [], out = []) {
  out.push(prefix);
  if (out.length > 200 || value === null || typeof value !== 'object') return out;
  for (const [k, v] of Object.entries(value)) nodesOf(v, [...prefix, k], out);
  return out;
}

function replaceAt(value, pathParts, replacement, drop) {
  if (pathParts.length === 0) return replacement;
  const copy = Array.isArray(value) ? [...value] : { ...value };
  const [head, ...rest] = pathParts;
  if (rest.length === 0 && drop) {
    if (Array.isArray(copy)) copy.splice(Number(head), 1);
    else delete copy[head];
  } else copy[head] = replaceAt(copy[head], rest, replacement, drop);
  return copy;
}

const BAD_JSON = [
  '{',
  '{"a":1,}',
  "{'a':1}",
  '[1,2',
  'NaN',
  'undefined',
  '{"a":NaN}',
  '{"a":1e999999}',
  '{"leadId":123456789012345678901234567890}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '\u0000',
  '\ufeff{}',
  '{"a":1}{"b":2}',
  '{"a":1} trailing',
  '"just a string"',
  '12',
  'null',
  'true',
  '[]',
  '{}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"a":' + '['.repeat(5000) + ']'.repeat(5000) + '}',
  '{"a":' + '{"b":'.repeat(3000) + '1' + '}'.repeat(3000) + '}',
  '{"a":"' + 'x'.repeat(1024) + '",'.repeat(1) + '"b":1}',
];

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/json; charset=nope',
  'APPLICATION/JSON',
  'application/json;',
  'application/merge-patch+json',
  'application/vnd.api+json',
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=zzz',
  'application/octet-stream',
  'application/xml',
  '',
  ';;;',
  'json',
];

const ACCEPTS = [
  undefined,
  'application/json',
  'text/html',
  '*/*',
  'application/json, text/event-stream',
  'text/event-stream',
  'image/*',
  'application/xml',
  ';q=',
  'text/html;q=0.1, application/json;q=0.9',
];

/** Headers a request may carry beside its credential, valid and not. */
const extraHeaders = fc.record(
  {
    accept: fc.constantFrom(...ACCEPTS.filter(Boolean)),
    'idempotency-key': fc.oneof(
      fc.uuid(),
      fc.constantFrom('', ' ', 'x'.repeat(300), 'ünï', 'a b', 'k'),
      fc.string({ minLength: 1, maxLength: 20 }),
    ),
    origin: fc.constantFrom(
      'https://www.agency.example',
      'null',
      'http://evil.example',
      'x',
      'https://a.b:99999',
    ),
    'if-none-match': fc.constantFrom('*', '"abc"', 'W/"x"', '"' + 'a'.repeat(64) + '"', ','),
    'x-request-id': fc.oneof(fc.uuid(), fc.constantFrom('', 'x'.repeat(500), '../../', 'a b')),
    'x-forwarded-for': fc.constantFrom('garbage', '999.1.1.1', '::1', '1.1.1.1, 2.2.2.2', ''),
    range: fc.constantFrom('bytes=0-1', 'bytes=99999999-', 'bytes=-1', 'lines=1'),
    'accept-language': fc.constantFrom('es', 'xx', '*;q=0', 'en-US,en;q=0.9'),
    'content-encoding': fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'x-nope', 'gzip, gzip'),
    'user-agent': fc.constantFrom('Googlebot/2.1', '', 'x'.repeat(4000), 'curl/8'),
    'mcp-session-id': fc.constantFrom('abc', ''),
    'x-api-key': fc.constantFrom('', 'svc_pk_short', 'svc_pk_' + 'z'.repeat(64)),
  },
  { requiredKeys: [] },
);

const CRED_KINDS = [
  'none',
  'session-admin',
  'session-member',
  'key-admin',
  'key-member',
  'key-admin-header',
  'key-member-scheme',
  'key-other-agency',
  'integration',
  'mcp',
  'mcp-member',
  'revoked',
  'made-up',
  'made-up-int',
  'made-up-mcp',
  'garbled',
];

const NATIVE = {
  public: ['none'],
  session: ['session-admin', 'session-member'],
  apiKey: ['key-admin', 'key-member', 'key-admin-header', 'key-member-scheme'],
  integration: ['integration'],
  mcp: ['mcp', 'mcp-member'],
};

/**
 * The arbitrary of one operation's requests: a draft resolved at send time against the pools and
 * the credentials of that moment (`materialize`).
 */
function requestArb(doc, op, mcpTools) {
  const pathArbs = {};
  for (const p of op.pathParams) {
    const schema = resolveRef(doc, p.schema ?? {});
    const pool = poolOfParam(op.template, p.name);
    pathArbs[p.name] = fc.oneof(
      { weight: 6, arbitrary: fromPool(pool, validArb(doc, schema).map(String)) },
      { weight: 2, arbitrary: validArb(doc, schema).map((v) => encodeURIComponent(String(v))) },
      { weight: 3, arbitrary: hostileText.map((text) => ({ $raw: text })) },
    );
  }
  const queryArb = sparseRecord(
    Object.fromEntries(
      op.queryParams.map((p) => [
        p.name,
        fc.oneof(
          { weight: 6, arbitrary: validArb(doc, p.schema ?? {}, 0, p.name) },
          { weight: 2, arbitrary: hostileText.map((text) => ({ $raw: text })) },
          { weight: 1, arbitrary: fc.array(fc.string({ maxLength: 5 }), { minLength: 2, maxLength: 3 }) },
          { weight: 1, arbitrary: fc.constant({ $object: true }) },
        ),
      ]),
    ),
    op.queryParams.filter((p) => p.required).map((p) => p.name),
  );
  let bodyArb = fc.constant(undefined);
  if (op.template === '/mcp') bodyArb = mcpBodyArb(doc, op, mcpTools);
  else if (op.jsonSchema) bodyArb = validArb(doc, op.jsonSchema);
  const mutation = fc.record({
    kind: fc.constantFrom(
      'body-field',
      'body-field',
      'body-field',
      'body-drop',
      'body-whole',
      'body-raw',
      'content-type',
      'encoding',
      'no-body',
      'stray-body',
      'query-extra',
      'headers',
    ),
    at: fc.nat(),
    value: hostileValue,
    raw: fc.constantFrom(...BAD_JSON),
    contentType: fc.constantFrom(...CONTENT_TYPES),
    headers: extraHeaders,
  });
  const credKind = fc.oneof(
    { weight: 11, arbitrary: fc.constantFrom(...(NATIVE[op.credential] ?? ['none'])) },
    { weight: 5, arbitrary: fc.constantFrom(...CRED_KINDS) },
  );
  return fc.record({
    cred: credKind,
    credN: fc.nat(),
    pathValues: fc.record(pathArbs),
    query: queryArb,
    body: bodyArb,
    // two in five drafts as drawn from the schema; the others pushed outside it once or twice
    mutations: fc.oneof(
      { weight: 2, arbitrary: fc.constant([]) },
      { weight: 3, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 2 }) },
    ),
    multipart: op.multipartSchema ? multipartArb(op) : fc.constant(undefined),
  });
}

/** `POST /mcp`: JSON-RPC calls of the tools the server lists, their arguments from each tool's schema. */
function mcpBodyArb(doc, op, tools) {
  const id = fc.oneof(fc.integer(), fc.string({ maxLength: 8 }));
  const calls = tools.length
    ? fc.oneof(
        ...tools.map((tool) =>
          fc.record({
            jsonrpc: fc.constant('2.0'),
            id,
            method: fc.constant('tools/call'),
            params: fc.record({
              name: fc.constant(tool.name),
              arguments: validArb(doc, tool.inputSchema ?? {}),
            }),
          }),
        ),
      )
    : validArb(doc, op.jsonSchema);
  return fc.oneof(
    { weight: 8, arbitrary: calls },
    {
      weight: 1,
      arbitrary: fc.record({
        jsonrpc: fc.constant('2.0'),
        id,
        method: fc.constantFrom('initialize', 'tools/list', 'ping', 'resources/list', 'nope'),
        params: fc.constantFrom(
          {},
          { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
        ),
      }),
    },
    { weight: 1, arbitrary: validArb(doc, op.jsonSchema) },
    { weight: 1, arbitrary: fc.array(calls, { minLength: 1, maxLength: 3 }) },
  );
}

/** A multipart body: the form's fields, files that are images, nearly images, or nothing like one. */
function multipartArb(op) {
  const fileField = op.template.includes('media') ? 'files' : 'file';
  return fc.record({
    files: fc.array(
      fc.constantFrom('jpeg', 'png-bomb', 'truncated-jpeg', 'pdf', 'random', 'empty', 'tiny-png'),
      {
        minLength: 0,
        maxLength: 3,
      },
    ),
    fieldName: fc.constantFrom(fileField, fileField, 'other'),
    fields: fc.dictionary(
      fc.constantFrom('title', 'folderId', 'propertyId', 'x'),
      fc.oneof(fc.string({ maxLength: 20 }), fc.uuid(), fc.constantFrom('\u0000', 'x'.repeat(300))),
      { maxKeys: 3 },
    ),
    boundary: fc.constantFrom('fuzzboundary', 'fuzzboundary'),
    broken: fc.boolean(),
  });
}

// ---------------------------------------------------------------- drafts → requests

function resolvePools(value, world) {
  if (Array.isArray(value)) return value.map((v) => resolvePools(v, world));
  if (value && typeof value === 'object') {
    if ('$pool' in value && 'n' in value) {
      const id = world.pick(value.$pool, value.n);
      return id === undefined ? value.alt : id;
    }
    const out = {};
    for (const [k, v] of Object.entries(value)) out[k] = resolvePools(v, world);
    return out;
  }
  return value;
}

function authHeaders(kind, n, world) {
  const c = world.creds;
  switch (kind) {
    case 'none':
      return {};
    case 'key-admin-header':
      return { 'x-api-key': c[kind] };
    case 'key-member-scheme':
      return { authorization: `ApiKey ${c[kind]}` };
    case 'integration':
      return { authorization: `Bearer ${world.pickIntegrationKey(n)}` };
    case 'garbled':
      return {
        authorization: [
          'Bearer',
          'Bearer ',
          'Basic YTpi',
          'Bearer a b',
          'bearer ' + c['key-admin'],
          'Token x',
        ][n % 6],
      };
    default:
      return c[kind] ? { authorization: `Bearer ${c[kind]}` } : {};
  }
}

const encodeQueryValue = (v) =>
  v && typeof v === 'object' && '$raw' in v
    ? v.$raw
    : encodeURIComponent(typeof v === 'object' ? JSON.stringify(v) : String(v));

function materialize(op, draft, world, files) {
  let pathText = op.template;
  const named = []; // [pool, value] of the drawn path values, kept when the answer is a 2xx
  for (const [name, raw] of Object.entries(draft.pathValues)) {
    const value = resolvePools(raw, world);
    const isRaw = value && typeof value === 'object' && '$raw' in value;
    const text = isRaw ? value.$raw : encodeURIComponent(String(value));
    if (!isRaw) named.push([poolOfParam(op.template, name), value]);
    pathText = pathText.replace(`{${name}}`, text === '' ? 'x' : text);
  }
  const query = [];
  for (const [name, raw] of Object.entries(draft.query)) {
    const value = resolvePools(raw, world);
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) query.push(`${name}=${encodeQueryValue(v)}`);
    else if (value && typeof value === 'object' && value.$object) query.push(`${name}[a]=1&${name}[b][c]=2`);
    else query.push(`${name}=${encodeQueryValue(value)}`);
  }
  let body = resolvePools(draft.body, world);
  let rawBody;
  const headers = { ...authHeaders(draft.cred, draft.credN, world), 'x-forwarded-for': randomAddress() };
  if (op.template === '/mcp') headers.accept = 'application/json, text/event-stream';
  let contentType = body === undefined ? undefined : 'application/json';
  let encoding;
  for (const m of draft.mutations) {
    switch (m.kind) {
      case 'body-field': {
        if (body === undefined) break;
        const nodes = nodesOf(body);
        body = replaceAt(body, nodes[m.at % nodes.length], resolvePools(m.value, world), false);
        break;
      }
      case 'body-drop': {
        if (body === undefined || body === null || typeof body !== 'object') break;
        const nodes = nodesOf(body).filter((n) => n.length > 0);
        if (nodes.length) body = replaceAt(body, nodes[m.at % nodes.length], undefined, true);
        break;
      }
      case 'body-whole':
        body = resolvePools(m.value, world);
        contentType = 'application/json';
        break;
      case 'body-raw':
        rawBody = m.raw;
        contentType = 'application/json';
        break;
      case 'content-type':
        contentType = m.contentType;
        if (body === undefined && rawBody === undefined) body = {};
        break;
      case 'encoding':
        encoding = m.headers['content-encoding'] ?? 'gzip';
        if (body === undefined && rawBody === undefined) body = {};
        contentType = contentType ?? 'application/json';
        break;
      case 'no-body':
        body = undefined;
        rawBody = undefined;
        contentType = undefined;
        break;
      case 'stray-body':
        if (body === undefined) {
          body = { stray: true };
          contentType = 'application/json';
        }
        break;
      case 'query-extra':
        query.push(
          ['limit=-1', 'page=0', 'offset=99999999999', 'limit=1e3', 'a[b]=1', 'q=%00', 'limit=1&limit=2'][
            m.at % 7
          ],
        );
        break;
      case 'headers':
        Object.assign(headers, m.headers);
        delete headers['content-encoding'];
        break;
      default:
        break;
    }
  }
  let payload;
  if (draft.multipart && !draft.mutations.some((m) => m.kind.startsWith('body') || m.kind === 'no-body')) {
    const form = multipartBody(draft.multipart, files);
    payload = form.bytes;
    contentType = form.contentType;
  } else if (rawBody !== undefined) payload = Buffer.from(rawBody);
  else if (body !== undefined) payload = Buffer.from(JSON.stringify(body) ?? 'null');
  if (payload !== undefined) {
    if (encoding === 'gzip') payload = zlib.gzipSync(payload);
    else if (encoding === 'deflate') payload = zlib.deflateSync(payload);
    if (encoding) headers['content-encoding'] = encoding;
    if (contentType) headers['content-type'] = contentType;
  }
  const target = pathText + (query.length ? `?${query.join('&')}` : '');
  return { method: op.method, path: target, headers, body: payload, named };
}

function multipartBody(spec, files) {
  const boundary = spec.boundary;
  const parts = [];
  for (const [name, value] of Object.entries(spec.fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  for (const [i, kind] of spec.files.entries()) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${spec.fieldName}"; filename="f${i}.${kind}"\r\n` +
          `Content-Type: ${kind === 'pdf' ? 'application/pdf' : 'image/jpeg'}\r\n\r\n`,
      ),
      files[kind],
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(spec.broken ? `--${boundary}\r\n` : `--${boundary}--\r\n`));
  return { bytes: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function sampleFiles() {
  let jpeg;
  let tinyPng;
  try {
    const sharp = require('sharp');
    jpeg = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#3366aa' } })
      .jpeg()
      .toBuffer();
    tinyPng = await sharp({ create: { width: 4, height: 4, channels: 4, background: '#000' } })
      .png()
      .toBuffer();
  } catch {
    jpeg = Buffer.from(
      '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAP//////////////////////////////////////////2Q==',
      'base64',
    );
    tinyPng = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
  }
  // a PNG header claiming 30,000 × 30,000 px with a few bytes of data: a decompression bomb's shape
  const bomb = Buffer.from(tinyPng);
  bomb.writeUInt32BE(30_000, 16);
  bomb.writeUInt32BE(30_000, 20);
  return {
    jpeg,
    'tiny-png': tinyPng,
    'png-bomb': bomb,
    'truncated-jpeg': jpeg.subarray(0, Math.floor(jpeg.length / 3)),
    pdf: Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n'),
    random: Buffer.from(Array.from({ length: 2048 }, (_, i) => (i * 7919) % 256)),
    empty: Buffer.alloc(0),
  };
}

// ---------------------------------------------------------------- the run

async function main() {
  fs.mkdirSync(OUT, { recursive: true });
  const apiLog = path.join(OUT, 'api.log');
  let commit = process.env.FUZZ_COMMIT ?? 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    // not a checkout (an archive of one): FUZZ_COMMIT names it
  }
  log(`seed ${SEED}, ${TOTAL} requests, concurrency ${CONCURRENCY}, commit ${commit}; output in ${OUT}`);
  const db = await createBenchDatabase();
  let api;
  const stop = async () => {
    await api?.stop();
    if (!process.env.FUZZ_KEEP_DB) await db.drop().catch(() => undefined);
  };
  process.once('SIGINT', () => stop().then(() => process.exit(130)));
  try {
    api = await startApi({
      databaseUrl: db.url,
      logFile: apiLog,
      env: {
        // 5xx are logged at error with their cause; refusals at info are left out
        LOG_LEVEL: 'warn',
        // each request names its own client address, so per-address limits (sign-in, sign-up,
        // public pages) count per drawn address instead of refusing everything after the first few
        TRUST_PROXY_HOPS: '1',
      },
    });
    log(`API at ${api.base} (database ${db.name})`);
    const agency = await runOps(db.url, ['seed:demo', '--leads', String(LEADS), '--json']);
    const world = new World(api.base, agency);
    world.dbUrl = db.url;
    await world.setup();
    await sleep(5_500); // the key cache holds a key's limits for 5 s
    const doc = JSON.parse((await send(api.base, { method: 'GET', path: '/v1/openapi.json' })).text);
    const ops = loadOperations(doc);
    const toolsRes = await call(api.base, 'POST', '/mcp', {
      token: world.creds.mcp,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    });
    const tools = toolsRes.body?.result?.tools ?? [];
    log(`${ops.length} operations; ${tools.length} MCP tools`);
    const files = await sampleFiles();
    const arbs = ops.map((op) => requestArb(doc, op, tools));
    await warmUp(api.base, ops, arbs, world, files);
    await seedRecords(api.base, world, files);
    const queues = ops.map(() => []);
    let drawSeed = SEED;
    const draftOf = (i) => {
      if (queues[i].length === 0) queues[i] = fc.sample(arbs[i], { numRuns: BATCH, seed: drawSeed++ });
      return queues[i].pop();
    };

    const counts = { byClass: {}, byStatus: {}, byCode: {}, byOperation: {} };
    const failures = fs.createWriteStream(path.join(OUT, 'failures.ndjson'));
    const trace = TRACE ? fs.createWriteStream(path.join(OUT, 'trace.ndjson')) : null;
    let fivexx = 0;
    const headerFailures = {};
    let noAnswer = 0;
    let clientRefused = 0;
    let sent = 0;
    let nextOp = 0;
    let checking = null;
    const started = Date.now();
    let lastReport = started;

    const worker = async () => {
      for (;;) {
        if (checking) await checking;
        if (sent >= TOTAL) return;
        const n = sent++;
        if (n > 0 && n % CHECK_EVERY === 0 && !checking) {
          checking = world.check().finally(() => (checking = null));
          await checking;
        }
        const i = nextOp++ % ops.length;
        const op = ops[i];
        const draft = draftOf(i);
        const request = materialize(op, draft, world, files);
        if (op.template === '/auth/sign-out' && draft.cred.startsWith('session-')) {
          // a session of its own to end: the shared one stays for the other requests
          const role = draft.cred.slice('session-'.length);
          request.headers.authorization = `Bearer ${await world.signIn(world.people[role])}`;
        }
        const res = await send(api.base, request);
        if (res.status === -1) {
          clientRefused++;
          continue;
        }
        const cls = res.status === 0 ? 'no answer' : `${Math.floor(res.status / 100)}xx`;
        counts.byClass[cls] = (counts.byClass[cls] ?? 0) + 1;
        counts.byStatus[res.status] = (counts.byStatus[res.status] ?? 0) + 1;
        const perOp = (counts.byOperation[op.name] ??= {});
        perOp[cls] = (perOp[cls] ?? 0) + 1;
        for (const failure of headerProblems(request.path, res)) {
          const name = `${op.name}: ${failure}`;
          headerFailures[name] = (headerFailures[name] ?? 0) + 1;
        }
        const code = res.status >= 400 ? errorCodeOf(res) : '';
        const statusCode = `${res.status}${code ? ` ${code}` : ''}`;
        counts.byCode[statusCode] = (counts.byCode[statusCode] ?? 0) + 1;
        trace?.write(
          `${JSON.stringify({ op: op.name, cred: draft.cred, path: request.path.slice(0, 300), status: statusCode, message: res.status >= 400 ? errorMessageOf(res) : undefined })}\n`,
        );
        if (res.status >= 200 && res.status < 300) {
          const body = json(res);
          if (body && op.method !== 'DELETE') world.harvest(op.template, body);
          // an upsert by external id made that id real
          if (op.method === 'PUT') for (const [pool, value] of request.named) world.add(pool, value);
        }
        if (res.status >= 500 || res.status === 0) {
          if (res.status === 0) noAnswer++;
          else fivexx++;
          failures.write(
            `${JSON.stringify({
              operation: op.name,
              status: res.status,
              error: res.error,
              credential: draft.cred,
              request: {
                method: request.method,
                path: request.path.length > 4000 ? `${request.path.slice(0, 4000)}…` : request.path,
                headers: request.headers,
                body: request.body ? truncate(request.body) : undefined,
              },
              answer: res.text ? res.text.slice(0, 1000) : undefined,
            })}\n`,
          );
          if (fivexx + noAnswer <= 20)
            log(
              `${res.status || res.error} ${op.name} (${draft.cred}): ${request.method} ${request.path.slice(0, 200)}`,
            );
        }
        if (Date.now() - lastReport > 30_000) {
          lastReport = Date.now();
          const rps = Math.round(sent / ((Date.now() - started) / 1000));
          log(`${sent}/${TOTAL} sent, ${rps}/s, ${JSON.stringify(counts.byClass)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    await new Promise((r) => failures.end(r));
    if (trace) await new Promise((r) => trace.end(r));
    const seconds = (Date.now() - started) / 1000;
    const summary = {
      commit,
      seed: SEED,
      requests: TOTAL,
      answered: TOTAL - clientRefused,
      clientRefused,
      concurrency: CONCURRENCY,
      seconds: Math.round(seconds),
      rps: Math.round(TOTAL / seconds),
      operations: ops.length,
      byClass: counts.byClass,
      byStatus: counts.byStatus,
      byCode: Object.fromEntries(Object.entries(counts.byCode).sort((a, b) => b[1] - a[1])),
      fivexx,
      noAnswer,
      headerFailures,
      operationsWithout2xx: Object.entries(counts.byOperation)
        .filter(([, c]) => !c['2xx'])
        .map(([name]) => name),
      byOperation: counts.byOperation,
    };
    await sleep(500); // the API's last log lines
    summary.databaseRefusals = databaseRefusals(apiLog);
    fs.writeFileSync(path.join(OUT, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
    printSummary(summary);
    process.exitCode = fivexx + noAnswer + Object.keys(headerFailures).length > 0 ? 1 : 0;
  } finally {
    await stop();
  }
}

const ADMIN_KIND = {
  public: 'none',
  session: 'session-admin',
  apiKey: 'key-admin',
  integration: 'integration',
  mcp: 'mcp',
};

/**
 * Before the counted run: each creating route (those without path parameters first, then those
 * with) drawn valid as the admin until it made up to three records, so the pools hold real ids of
 * every kind (brochures, documents, queues, meetings, …) and later requests reach past "not found".
 */
async function warmUp(base, ops, arbs, world, files) {
  let made = 0;
  for (const nested of [false, true, true]) {
    for (const [i, op] of ops.entries()) {
      if (op.method !== 'POST' && op.method !== 'PUT') continue;
      if (op.pathParams.length > 0 !== nested || /sign-out|rotate|revoke/.test(op.template)) continue;
      let created = 0;
      for (const draft of fc.sample(arbs[i], { numRuns: 30, seed: SEED + i })) {
        draft.cred = ADMIN_KIND[op.credential];
        draft.mutations = [];
        const request = materialize(op, draft, world, files);
        const res = await send(base, request);
        if (res.status >= 200 && res.status < 300) {
          const body = json(res);
          if (body) world.harvest(op.template, body);
          if (op.method === 'PUT') for (const [pool, value] of request.named) world.add(pool, value);
          made++;
          if (++created >= 3) break;
        }
      }
    }
  }
  const sizes = [...world.pools].map(([name, set]) => `${name} ${set.size}`);
  log(`warm-up: ${made} records made; real ids: ${sizes.join(', ')}`);
}

/**
 * Records the drawn bodies seldom make (their rules reach past the schema): brochures of own
 * listings, shared documents, open houses, collection items, a webhook endpoint, uploaded photos.
 */
async function seedRecords(base, world, files) {
  const key = world.creds['key-admin'];
  const session = world.creds['session-admin'];
  const listings = [...(world.pools.get('listingId') ?? [])].slice(0, 12);
  const tomorrow = new Date(Date.now() + 86_400_000);
  const post = async (target, token, body, pool) => {
    const res = await call(base, 'POST', target, { token, body });
    if (res.status >= 200 && res.status < 300 && res.body) {
      world.harvest(pool ?? target, res.body);
      return res.body;
    }
    return null;
  };
  for (const id of listings.slice(0, 3))
    await post('/v1/brochures', key, { listings: [{ source: 'internal', id }], title: 'Fuzz brochure' });
  for (const id of [...(world.pools.get('documentId') ?? [])].slice(0, 3))
    await post(`/v1/documents/${id}/share`, key, {}, '/v1/documents');
  let openHouses = 0;
  for (const id of listings) {
    if (openHouses >= 2) break;
    const made = await post('/network/open-houses', session, {
      propertyListingId: id,
      startsAt: tomorrow.toISOString(),
      endsAt: new Date(tomorrow.getTime() + 7_200_000).toISOString(),
      timezone: 'Europe/Madrid',
    });
    if (made) openHouses++;
  }
  for (const collectionId of [...(world.pools.get('collectionId') ?? [])].slice(0, 2))
    for (const id of listings.slice(0, 2))
      await post(`/network/collections/${collectionId}/items`, session, { source: 'internal', id });
  await post('/v1/webhook-endpoints', key, { url: 'https://example.com/hooks/fuzz', events: ['*'] });
  const boundary = 'fuzzseed';
  const form = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    ),
    files.jpeg,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const upload = await send(base, {
    method: 'POST',
    path: '/properties/media/upload',
    headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body: form,
  });
  if (upload.status === 201) world.harvest('/media', json(upload));
  const sizes = [...world.pools].map(([name, set]) => `${name} ${set.size}`);
  log(`seeded records; real ids: ${sizes.join(', ')}`);
}

/**
 * What every answer must carry (docs/security/headers-and-input.md): nosniff, a CSP with
 * `frame-ancestors 'none'` and no inline script, and `no-store` except on media files and
 * Swagger UI's static files.
 */
function headerProblems(target, res) {
  if (res.status <= 0) return [];
  const problems = [];
  const h = res.headers;
  if (h['x-content-type-options'] !== 'nosniff') problems.push('no nosniff');
  const csp = h['content-security-policy'] ?? '';
  if (!/frame-ancestors 'none'/.test(csp)) problems.push('no CSP frame-ancestors');
  const directives = Object.fromEntries(
    csp.split(';').map((part) => {
      const [name, ...values] = part.trim().split(/\s+/);
      return [name, values];
    }),
  );
  const scripts = directives['script-src'] ?? directives['default-src'] ?? ['*'];
  if (scripts.includes("'unsafe-inline'") || scripts.includes('*')) problems.push('inline script allowed');
  const cacheable =
    target.startsWith('/media/') || /^\/docs\/.+\.(js|css|png|html)$/.test(target.split('?')[0]);
  if (!cacheable && h['cache-control'] !== 'no-store') problems.push(`cache-control ${h['cache-control']}`);
  return problems;
}

/**
 * The 4xx answers the database's refusal decided (logged at warn as "request refused by the
 * database"): each names a rule missing in front of a statement, by route and SQLSTATE.
 */
function databaseRefusals(logFile) {
  const found = {};
  for (const line of fs.readFileSync(logFile, 'utf8').split('\n')) {
    if (!line.includes('request refused by the database')) continue;
    try {
      const entry = JSON.parse(line);
      const name = `${entry.method} ${entry.route} ${entry.err?.code ?? ''}`;
      found[name] = (found[name] ?? 0) + 1;
    } catch {
      // not a log line of ours
    }
  }
  return found;
}

/** The error code of an answer in either shape (the envelope's or the listing families' legacy one). */
function errorCodeOf(res) {
  const body = json(res);
  return (
    body?.error?.code ?? body?.code ?? (res.headers['content-type']?.startsWith('text/html') ? 'html' : '')
  );
}

function errorMessageOf(res) {
  const body = json(res);
  const issue = body?.error?.details?.issues?.[0];
  const message = issue ? `${issue.path}: ${issue.message}` : (body?.error?.message ?? body?.message ?? '');
  return String(message).slice(0, 200);
}

function truncate(bytes) {
  const text = bytes.toString('utf8');
  return text.length > 20_000 ? `${text.slice(0, 20_000)}… (${text.length} characters)` : text;
}

function printSummary(s) {
  const lines = [
    `| requests | duration | rate | 2xx | 3xx | 4xx | 5xx | no answer | commit |`,
    `|---|---|---|---|---|---|---|---|---|`,
    `| ${s.requests.toLocaleString('en')} | ${s.seconds} s | ${s.rps}/s | ${s.byClass['2xx'] ?? 0} | ${
      s.byClass['3xx'] ?? 0
    } | ${s.byClass['4xx'] ?? 0} | ${s.fivexx} | ${s.noAnswer} | ${s.commit} |`,
    '',
    `By status: ${Object.entries(s.byStatus)
      .map(([status, n]) => `${status} ${n}`)
      .join(', ')}`,
    `Header rules broken: ${
      Object.entries(s.headerFailures)
        .map(([name, n]) => `${name} × ${n}`)
        .join(', ') || 'none'
    }`,
    `Refused by the database (a rule missing before a statement): ${
      Object.entries(s.databaseRefusals)
        .map(([name, n]) => `${name} × ${n}`)
        .join(', ') || 'none'
    }`,
    `Operations never answered 2xx (${s.operationsWithout2xx.length} of ${s.operations}): ${s.operationsWithout2xx.join(', ')}`,
  ];
  console.log(lines.join('\n'));
  log(`details in ${OUT}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
