'use strict';
// The floor the API is compared against: node:http + pg, no framework. It does what a cached,
// authorised read cannot skip, and nothing else: the Bearer key is hashed (sha256) and looked up
// with the API's own door statement (cached in memory for 5 s like the API's key cache; unknown,
// revoked or expired keys get 401), then the route runs the API's own SQL as NAMED prepared
// statements (PostgreSQL plans each once per connection) and answers JSON shaped like the API's.
// No rate limit, no usage recording, no validation beyond parsing: that is the door's cost.
//
// Env: DATABASE_URL, PORT, BENCH_SQL_ROOT (the checkout whose built SQL modules run; the harness
// passes its own, so both sides run identical SQL), DATABASE_POOL_SIZE (default 10, as the API).
const { createHash } = require('node:crypto');
const http = require('node:http');
const path = require('node:path');
const { Pool } = require('pg');
const { v7: uuidv7 } = require('uuid');

const ROOT = path.resolve(process.env.BENCH_SQL_ROOT ?? path.join(__dirname, '..'));
const built = (file) => require(path.join(ROOT, 'dist/libs', file));

// ---- The API's SQL: every use of the *.sql modules is here (adapt here if their signatures change).
const door = built('identity/src/domain/api-key.sql.js');
const people = built('identity/src/application/people.sql.js');
const leads = built('crm/src/application/lead-list.sql.js');
const deals = built('crm/src/application/deal-list.sql.js');
const integrationDoor = built('identity/src/domain/integration-key.sql.js');
const records = built('crm/src/application/records.sql.js');
const reach = built('crm/src/domain/lead-reach.js');
const queuePreview = built('queues/src/domain/queue-preview.sql.js');
const queueAnswer = built('queues/src/views/queue-preview.answer.js');
const systemQueue = built('queues/src/domain/system-queue.js');
const SQL = {
  doorFacts: (secretHash) => door.doorFactsStatement(secretHash),
  me: (userId, organizationId) => people.meStatement(userId, organizationId),
  // one row per lead with the total on each; past the last page one row with the total alone
  leadList: (scope, filters, page, limit) => leads.leadListStatement(scope, filters, page, limit),
  leadById: (scope, leadId) => leads.leadByIdStatement(leads.leadWhere(scope, {}), leadId),
  // at most 1,001 deals (ids first), then one statement for their participants
  dealList: (filters) => deals.dealListStatement(filters),
  dealParticipants: (dealIds) => deals.dealParticipantsStatement(dealIds),
  dealsCap: deals.DEALS_CAP,
  // the /integrations/v1 door, and a call's upsert and its lead's facts (one transaction)
  integrationDoor: (keyHash) => integrationDoor.integrationDoorStatement(keyHash),
  callUpsert: (write) => records.callUpsertStatement(write),
  lockLead: (organizationId, leadId) => records.lockLeadStatement(organizationId, leadId),
  leadFacts: (organizationId, leadId, now) => records.leadFactsStatement(organizationId, leadId, now),
  // a queue preview (issue 13): the queue and the person's teams (what the API's openable reads),
  // then the one preview statement over the leads the key's person reaches
  queueById: (organizationId, queueId) => ({
    sql: `select id, created_by, name, icon, scope, system, definition, audience_user_ids, audience_team_ids
            from queues where organization_id = ? and id = ?`,
    params: [organizationId, queueId],
  }),
  teamIdsOf: (organizationId, userId) => ({
    sql: `select id from teams where organization_id = ? and archived_at is null and ? = any(member_ids)`,
    params: [organizationId, userId],
  }),
  reach: (scope) => reach.leadReachSql('l', scope),
  queuePreview: (population, definition, context) =>
    queuePreview.queuePreviewStatement(population, definition, context),
  previewSettings: queuePreview.previewSettingsSql(5_000),
};
// ----

const pool = new Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE || 10), // the API's pool size, from the same variable
  idleTimeoutMillis: 30_000, // as the API's pool: idle between rounds, it keeps its prepared statements
});

/** `?` placeholders to `$n`, and a name per text, so pg prepares each statement once per connection. */
const named = new Map();
function run(statement, client = pool) {
  let shape = named.get(statement.sql);
  if (!shape) {
    let n = 0;
    const text = statement.sql.replace(/\?/g, () => `$${++n}`);
    shape = { name: `b${createHash('sha1').update(text).digest('base64url').slice(0, 24)}`, text };
    named.set(statement.sql, shape);
  }
  return client.query({ name: shape.name, text: shape.text, values: statement.params });
}

// ---- Authentication: hash, 5-second cache, the door's statement on a miss.
const KEY_TTL_MS = 5_000;
const keys = new Map();

class HttpError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}
/** An answer whose status is not 200. */
class WithStatus {
  constructor(status, body) {
    this.status = status;
    this.body = body;
  }
}
const unauthenticated = (message) => new HttpError(401, 'UNAUTHENTICATED', message);

async function authenticate(req) {
  const header = req.headers.authorization ?? '';
  if (!header.startsWith('Bearer ')) throw unauthenticated('An API key is required.');
  const hash = createHash('sha256').update(header.slice(7)).digest('hex');
  const now = Date.now();
  let cached = keys.get(hash);
  if (!cached || cached.until <= now) {
    const { rows } = await run(SQL.doorFacts(hash));
    cached = { key: rows[0] ?? null, until: now + KEY_TTL_MS };
    keys.set(hash, cached);
  }
  const key = cached.key;
  if (!key) throw unauthenticated('Unknown API key.');
  if (key.revoked_at) throw unauthenticated('This API key was revoked.');
  if (key.expires_at && key.expires_at.getTime() <= now) throw unauthenticated('This API key has expired.');
  if (key.rotated_to_id && key.grace_until && key.grace_until.getTime() <= now) {
    throw unauthenticated('This API key was rotated and its grace period is over.');
  }
  if (!key.owner_role || key.disabled) throw new HttpError(403, 'FORBIDDEN', 'This key cannot be used.');
  return key;
}

/** The `/integrations/v1` door: `svc_int_` + 32 hex, hash, the same 5-second cache, 401 / 403 as the API. */
const INTEGRATION_KEY = /^svc_int_[0-9a-f]{32}$/;
async function authenticateIntegration(req) {
  const header = req.headers.authorization ?? '';
  const secret = header.startsWith('Bearer ') ? header.slice(7) : '';
  if (!INTEGRATION_KEY.test(secret)) throw unauthenticated('The integration key is malformed.');
  const hash = createHash('sha256').update(secret).digest('hex');
  const now = Date.now();
  let cached = keys.get(hash);
  if (!cached || cached.until <= now) {
    const { rows } = await run(SQL.integrationDoor(hash));
    cached = { key: rows[0] ?? null, until: now + KEY_TTL_MS };
    keys.set(hash, cached);
  }
  const key = cached.key;
  if (!key) throw unauthenticated('Unknown integration key.');
  if (key.revoked_at) throw unauthenticated('This integration key was revoked.');
  if (key.disabled) throw new HttpError(403, 'ORG_DISABLED', 'This organization is disabled.');
  return key;
}

const scopeOf = (key) => ({
  organizationId: key.organization_id,
  memberId: key.owner_role === 'admin' ? null : key.created_by_id,
});

// ---- JSON shaped like the API's views.
const iso = (value) => (value === null ? null : new Date(value).toISOString());
const leadListItem = (row) => ({
  id: Number(row.id),
  firstName: row.first_name,
  lastName: row.last_name,
  email: row.email,
  phoneNumber: row.phone_number,
  language: row.language,
  companyName: row.company_name,
  crmStatus: row.crm_status,
  assigneeIds: row.assignee_ids,
  purchasedAt: iso(row.purchased_at),
  totalCalls: row.total_calls,
  lastCallAt: iso(row.last_call_at),
  pendingTasks: Number(row.pending_tasks),
  nextTaskDueAt: iso(row.next_task_due_at),
  leadGroup: row.lead_group,
  tags: row.tags.map((tag) => ({ ...tag, leadCount: Number(tag.leadCount) })),
});
const lead = (row) => ({
  ...leadListItem(row),
  source: row.source,
  leadType: row.lead_type,
  createdAt: iso(row.created_at),
  channels: [],
});

// ---- Routes.
async function me(key) {
  const { rows } = await run(SQL.me(key.created_by_id, key.organization_id));
  const row = rows[0];
  return {
    user: { id: key.created_by_id, name: `${row.first_name} ${row.last_name}`.trim(), email: row.email },
    organization: { id: key.organization_id, name: row.org_name },
    role: key.owner_role,
    entitled: key.plan_active,
    key: {
      id: key.id,
      name: key.name,
      prefixHint: key.prefix_hint,
      scopes: key.scopes,
      expiresAt: iso(key.expires_at),
    },
  };
}

const positive = (value, fallback) => {
  if (value === null) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new HttpError(400, 'VALIDATION_FAILED', 'Bad paging.');
  return n;
};

async function listLeads(key, params) {
  const page = positive(params.get('page'), 1);
  const limit = Math.min(positive(params.get('limit'), 25), 100);
  const filters = {
    search: params.get('search') || undefined,
    crmStatus: params.get('crmStatus') || undefined,
  };
  const { rows } = await run(SQL.leadList(scopeOf(key), filters, page, limit));
  const total = Number(rows[0].total);
  const data = rows.filter((row) => row.id !== null).map(leadListItem);
  return { data, hasMore: page * limit < total, page, limit, total };
}

async function leadById(key, id) {
  const { rows } = await run(SQL.leadById(scopeOf(key), id));
  if (rows.length === 0) throw new HttpError(404, 'NOT_FOUND', 'Lead not found.');
  return lead(rows[0]);
}

// numeric(14,2) and numeric(5,2) come back from pg as two-decimal strings, as the API answers them
const money = (value) => (value === null ? null : String(value));
const deal = (row, participants) => ({
  id: row.id,
  leadId: Number(row.lead_id),
  assigneeIds: row.assignee_ids,
  title: row.title,
  status: row.status,
  stage: row.stage,
  amount: money(row.amount),
  currency: row.currency,
  propertyListingId: row.property_listing_id,
  expectedCloseAt: iso(row.expected_close_at),
  wonAt: iso(row.won_at),
  lostAt: iso(row.lost_at),
  lostReason: row.lost_reason,
  stageChangedAt: iso(row.stage_changed_at),
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
  participants: participants.map((p) => ({ userId: p.user_id, role: p.role, percent: money(p.percent) })),
  commissionMode: row.commission_mode,
  commissionAmount: money(row.commission_amount),
  commissionPercent: money(row.commission_percent),
  invoiceNumber: row.invoice_number,
  estimatedCollectionAt: iso(row.estimated_collection_at),
  collectedAt: iso(row.collected_at),
});

async function listDeals(key, params) {
  const filters = {
    organizationId: key.organization_id,
    personId: key.created_by_id,
    status: params.get('status') || undefined,
  };
  const { rows } = await run(SQL.dealList(filters));
  const page = rows.slice(0, SQL.dealsCap);
  const participants = page.length ? (await run(SQL.dealParticipants(page.map((r) => r.id)))).rows : [];
  const byDeal = new Map();
  for (const p of participants) byDeal.set(p.deal_id, [...(byDeal.get(p.deal_id) ?? []), p]);
  return {
    data: page.map((row) => deal(row, byDeal.get(row.id) ?? [])),
    hasMore: rows.length > SQL.dealsCap,
  };
}

/** The request body as JSON (400 when it is not), as the API's body parser reads it. */
async function jsonBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, 'BAD_REQUEST', 'The body is not valid JSON.');
  }
}

/**
 * `PUT /integrations/v1/calls/{externalId}` with `leadId`: one transaction, as the API's records
 * service: the lead link (a plain existence check where the API loads the lead through the ORM),
 * the upsert, the lead's row lock and its facts, all but the first the API's own statements.
 * 201/200 `{id, leadId, created}`, 404 `Lead not found.`, 409 when the call would move or flip.
 * No validation beyond what the SQL needs (the API validates the whole body first).
 */
async function putCall(key, externalId, body) {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const org = key.organization_id;
    const leadId = Number(body.leadId);
    if (!Number.isSafeInteger(leadId))
      throw new HttpError(400, 'VALIDATION_FAILED', 'leadId must be an integer.');
    const found = await run(
      { sql: 'select l.id from leads l where l.organization_id = ? and l.id = ?', params: [org, leadId] },
      client,
    );
    if (found.rows.length === 0) throw new HttpError(404, 'NOT_FOUND', 'Lead not found.');
    const now = new Date();
    const { rows } = await run(
      SQL.callUpsert({
        organizationId: org,
        connector: key.connector,
        externalId,
        id: uuidv7(),
        leadId,
        actor: `integration:${key.id}`,
        now,
        ownerUserId: body.ownerUserId?.toLowerCase() ?? null,
        ownerEmail: body.ownerEmail ?? null,
        direction: body.direction,
        status: body.status,
        outcome: body.outcome ?? null,
        endedReason: body.endedReason ?? null,
        durationSeconds: body.durationSeconds,
        hasRecording: body.hasRecording,
        startedAt: new Date(body.startedAt),
        endedAt: body.endedAt === undefined ? null : new Date(body.endedAt),
      }),
      client,
    );
    if (rows.length === 0) {
      throw new HttpError(
        409,
        'CONFLICT',
        'This call was stored on another lead or with another direction; neither can change.',
      );
    }
    await run(SQL.lockLead(org, leadId), client);
    await run(SQL.leadFacts(org, leadId, now), client);
    await client.query('commit');
    const row = rows[0];
    return new WithStatus(row.created ? 201 : 200, {
      id: row.id,
      leadId: Number(row.lead_id),
      created: row.created,
    });
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const queueNotFound = () => new HttpError(404, 'NOT_FOUND', 'Queue not found.');

/**
 * `POST /v1/queues/preview {queueId}`: the queue and the person's teams, openability as the
 * Queue aggregate decides it, then the API's one statement (same `set local statement_timeout`,
 * in a transaction) and the answer built by the API's own pure modules (description, reason).
 */
async function previewQueue(key, body) {
  const queueId = body?.queueId;
  if (typeof queueId !== 'string' || body.definition !== undefined)
    throw new HttpError(400, 'VALIDATION_FAILED', 'Send a queueId.');
  if (!UUID.test(queueId)) throw queueNotFound();
  const userId = key.created_by_id;
  const [queues, teams] = await Promise.all([
    run(SQL.queueById(key.organization_id, queueId)),
    run(SQL.teamIdsOf(key.organization_id, userId)),
  ]);
  const queue = queues.rows[0];
  const teamIds = teams.rows.map((row) => row.id);
  const openable =
    queue &&
    (queue.system ||
      queue.created_by === userId ||
      (queue.scope === 'shared' &&
        ((queue.audience_user_ids.length === 0 && queue.audience_team_ids.length === 0) ||
          queue.audience_user_ids.includes(userId) ||
          queue.audience_team_ids.some((id) => teamIds.includes(id)))));
  if (!openable) throw queueNotFound();
  const definition = queue.system
    ? systemQueue.SYSTEM_QUEUE_DEFINITION
    : { name: queue.name, icon: queue.icon, scope: queue.scope, ...queue.definition };
  const people = definition.calling.pool === 'team' ? definition.calling.people : null;
  const wholeAgency =
    !queue.system &&
    people &&
    (people.userIds.includes(userId) || people.teamIds.some((id) => teamIds.includes(id)));
  const population = SQL.reach(
    wholeAgency ? { organizationId: key.organization_id, memberId: null } : scopeOf(key),
  );
  const statement = SQL.queuePreview(population, definition, { now: new Date(), viewerId: userId });
  const client = await pool.connect();
  let rows;
  try {
    await client.query('begin');
    await client.query(SQL.previewSettings);
    rows = (await run(statement, client)).rows;
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
  return queueAnswer.previewAnswer(definition, rows);
}

const EXTERNAL_ID = /^[\x21-\x7e]{1,255}$/;

async function route(req) {
  const url = new URL(req.url, 'http://localhost');
  const { pathname } = url;
  const call = /^\/integrations\/v1\/calls\/([^/]+)$/.exec(pathname);
  if (call && req.method === 'PUT') {
    const key = await authenticateIntegration(req);
    const externalId = decodeURIComponent(call[1]);
    if (!EXTERNAL_ID.test(externalId)) throw new HttpError(400, 'VALIDATION_FAILED', 'Bad externalId.');
    return putCall(key, externalId, await jsonBody(req));
  }
  if (pathname === '/v1/queues/preview' && req.method === 'POST') {
    const key = await authenticate(req);
    return previewQueue(key, await jsonBody(req));
  }
  if (req.method !== 'GET') throw new HttpError(405, 'METHOD_NOT_ALLOWED', 'GET only.');
  if (pathname === '/health') {
    await pool.query('select 1');
    return { status: 'ok' };
  }
  const key = await authenticate(req);
  if (pathname === '/v1/me') return me(key);
  if (pathname === '/v1/leads') return listLeads(key, url.searchParams);
  if (pathname === '/v1/deals') return listDeals(key, url.searchParams);
  const byId = /^\/v1\/leads\/(\d{1,15})$/.exec(pathname);
  if (byId) return leadById(key, Number(byId[1]));
  throw new HttpError(404, 'NOT_FOUND', 'No such route.');
}

const server = http.createServer((req, res) => {
  route(req).then(
    (answer) => {
      // a route answers its body (200), or withStatus(status, body)
      const { status, body } = answer instanceof WithStatus ? answer : { status: 200, body: answer };
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(body));
    },
    (err) => {
      const status = err instanceof HttpError ? err.status : 500;
      if (status === 500) console.error(err);
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ error: { code: err.code ?? 'INTERNAL', message: err.message } }));
    },
  );
});
server.listen(Number(process.env.PORT ?? 3901), '127.0.0.1');

process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  pool.end().finally(() => process.exit(0));
});
