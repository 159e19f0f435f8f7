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
const contactKeys = built('crm/src/domain/contact-keys.js');
const routingSql = built('routing/src/application/routing.sql.js');
const routingLeads = built('crm/src/application/routing-leads.sql.js');
const routingEngine = built('routing/src/domain/routing-engine.js');
const routePool = built('routing/src/domain/route-pool.js');
const routeClock = built('routing/src/domain/route-clock.js');
const documentList = built('documents/src/application/document-list.sql.js');
const listingSearch = built('listings/src/application/listing-search.sql.js');
const listingSummary = built('listings/src/views/listing-summary.row.js');
const viewingList = built('network/src/application/viewing-list.sql.js');
const viewingView = built('network/src/views/viewing.view.js');
// events (issue 19): the event log's page statement and its view
const eventsSql = built('events/src/log/application/events.sql.js');
const eventView = built('events/src/log/views/event.view.js');
const eventsQueries = built('events/src/log/application/events.queries.js');
// the brochure page's pure renderer (it loads the platform and listings indexes for its helpers)
const brochureRenderer = built('brochures/src/application/brochure-page.renderer.js');
const publicPage = built('platform/src/http/public-page.js');
// search (issue 18): the pipeline's statements, query plan, reranker, snippet and indexer modules;
// `rerankQuery` is exported by the service module (loading it loads the CRM's modules: slow start)
const searchSql = built('search/src/application/search.sql.js');
const transactionSettings = built('platform/src/db/transaction-settings.js');
const searchQuery = built('search/src/domain/search-query.js');
const searchRerank = built('search/src/domain/bm25f-reranker.js');
const searchSnippet = built('search/src/domain/snippet.js');
const searchService = built('search/src/application/search.service.js');
const searchIndex = built('search/src/application/search-index.sql.js');
const searchRetrieval = built('search/src/application/retrieval.js');
const searchWords = built('search/src/domain/words.js');
const searchChunking = built('search/src/domain/chunking.js');
// issue 19: the outbox's statement (a checkout without the event log: null, `?events=1` refused)
let outbox = null;
try {
  outbox = built('platform/src/events/outbox.js');
} catch {
  outbox = null;
}
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
  // search (issue 18): the reach LeadAccess.searchSql gives, then the pipeline's statements
  searchShares: (person) => reach.leadSharesSql(person),
  searchAnalyze: (organizationId, terms, extra) => searchSql.analyzeStatement(organizationId, terms, extra),
  searchConcepts: (organizationId, configs, queries) =>
    searchSql.conceptQueriesStatement(organizationId, configs, queries),
  searchSettings: transactionSettings.transactionSettingsStatement(
    searchSql.SEARCH_SETTINGS,
    searchSql.TRIGRAM_SETTINGS,
  ),
  searchRetrievalSettings: transactionSettings.transactionSettingsStatement(searchSql.RETRIEVAL_SETTINGS),

  searchSimilarWords: (organizationId, words) => searchSql.similarWordsStatement(organizationId, words),
  searchLexemeEstimates: (organizationId, lexemes) =>
    searchSql.lexemeEstimatesStatement(organizationId, lexemes),
  searchHeadlines: (searchReach, ids, configs, websearch) =>
    searchSql.headlineStatement(searchReach, ids, configs, websearch),
  // a note (the ORM's insert written out) and the indexer's two statements (ChunkIndexer.upsertSources)
  insertNote: (note) => ({
    sql: `insert into notes (id, organization_id, lead_id, author_id, content, is_pinned, occurred_at, created_at, updated_at)
          values (?, ?, ?, ?, ?, false, null, ?, ?)`,
    params: [note.id, note.organizationId, note.leadId, note.authorId, note.content, note.now, note.now],
  }),
  removeSources: (organizationId, kinds, sourceIds) =>
    searchIndex.removeSourcesStatement(organizationId, kinds, sourceIds),
  insertChunks: (organizationId, rows) => searchIndex.insertChunksStatement(organizationId, rows),
  queuePreview: (population, definition, context) =>
    queuePreview.queuePreviewStatement(population, definition, context),
  previewSettings: transactionSettings.transactionSettingsStatement(queuePreview.previewSettings(5_000)),
  // lead intake with routing (issue 14): the intake's own statements (LeadRepository,
  // ExternalIdRepository; the ORM's inserts written out), then routing's, all from the built modules
  intakeLock: (key) => ({ sql: 'select pg_advisory_xact_lock(hashtextextended(?, 0))', params: [key] }),
  externalRecordId: (organizationId, connector, externalId) => ({
    sql: `select record_id from integration_external_ids
           where organization_id = ? and connector = ? and kind = ? and external_id = ?`,
    params: [organizationId, connector, 'lead', externalId],
  }),
  leadInOrg: (organizationId, leadId) => ({
    sql: 'select l.id, l.assignee_ids from leads l where l.organization_id = ? and l.id = ?',
    params: [organizationId, leadId],
  }),
  latestByContact: (organizationId, kind, key) => ({
    sql: `select l.id from leads l where l.organization_id = ? and ${kind === 'email' ? `lower(l.email) = ? and l.email <> ''` : 'l.phone_key = ?'}
           order by l.updated_at desc, l.id desc limit 1`,
    params: [organizationId, key],
  }),
  insertLead: (lead) => ({
    sql: `insert into leads (organization_id, first_name, last_name, email, phone_number, language, company_name,
            crm_status, assignee_ids, tag_ids, source, lead_type, lead_group, purchased_at, phone_key, origin,
            consent, country, growth_area_id, created_at, updated_at)
          values (?, ?, ?, ?, ?, ?, null, 'lead', '{}', '{}', ?, ?, null, ?, ?, ?, ?::jsonb, ?, ?, ?, ?)
          returning id, created_at`,
    params: [
      lead.organizationId,
      lead.firstName,
      lead.lastName,
      lead.email,
      lead.phoneNumber,
      lead.language,
      lead.source,
      lead.leadType,
      lead.now,
      lead.phoneKey,
      lead.origin,
      lead.consent === null ? null : JSON.stringify(lead.consent),
      lead.country,
      lead.growthAreaId,
      lead.now,
      lead.now,
    ],
  }),
  lockLeadForRouting: (organizationId, leadId) =>
    routingLeads.lockLeadForRoutingStatement(organizationId, leadId),
  lockRoutingSettings: (organizationId, now) => routingSql.lockSettingsStatement(organizationId, now),
  routes: (organizationId) => routingSql.routesStatement(organizationId),
  directory: (organizationId) => people.directoryStatement(organizationId),
  away: (organizationId, now) => routingSql.awayStatement(organizationId, now),
  openLeadCounts: (organizationId) => routingLeads.openLeadCountsStatement(organizationId),
  saveRouteState: (organizationId, ruleId, state) =>
    routingSql.saveRouteStateStatement(organizationId, ruleId, state),
  saveCounters: (organizationId, counters) => routingSql.saveCountersStatement(organizationId, counters),
  insertDecision: (row) => routingSql.insertDecisionStatement(row),
  rememberExternalId: (organizationId, connector, externalId, leadId, now) => ({
    sql: `with inserted as (
            insert into integration_external_ids (organization_id, connector, kind, external_id, record_id, lead_id, created_at)
            values (?, ?, ?, ?, ?, ?, ?)
            on conflict do nothing
            returning record_id)
          select record_id from inserted
          union all
          select record_id from integration_external_ids
           where organization_id = ? and connector = ? and kind = ? and external_id = ?
             and not exists (select 1 from inserted)`,
    params: [
      ...[organizationId, connector, 'lead', externalId, String(leadId), leadId, now],
      ...[organizationId, connector, 'lead', externalId],
    ],
  }),
  // the flush at the end: the lead's owners, its history rows and the inquiry
  updateOwners: (leadId, assigneeIds, now) => ({
    sql: 'update leads set assignee_ids = ?, updated_at = ? where id = ?',
    params: [assigneeIds, now, leadId],
  }),
  insertHistory: (rows) => ({
    sql: `insert into lead_history (id, organization_id, lead_id, type, payload, source, actor_id, occurred_at)
          select * from unnest(?::uuid[], ?::uuid[], ?::bigint[], ?::text[], ?::jsonb[], ?::text[], ?::uuid[], ?::timestamptz[])`,
    params: [
      rows.map((r) => r.id),
      rows.map((r) => r.organizationId),
      rows.map((r) => r.leadId),
      rows.map((r) => r.type),
      rows.map((r) => JSON.stringify(r.payload)),
      rows.map(() => 'api'),
      rows.map(() => null),
      rows.map((r) => r.now),
    ],
  }),
  // the document list (issue 15): one statement for the page and its exact total, run UNPREPARED
  // as the API runs it (its text varies with the filters), then the page's lead attachment counts
  // (the API's `attachmentCountsStatement`), prepared
  documentList: (organizationId, viewer, filters, offset, limit) =>
    documentList.documentListStatement(organizationId, viewer, filters, offset, limit),
  documentAttachmentCounts: (documentIds) => documentList.attachmentCountsStatement(documentIds),
  // property search (issue 16): the page with its exact total, and the count, run UNPREPARED as
  // the API runs them (their text varies with the filters)
  listingPage: (scope, body, sort, offset, limit) =>
    listingSearch.listingPageStatement(scope, body, sort, offset, limit),
  listingCount: (scope, body) => listingSearch.listingCountStatement(scope, body),
  // the network (issue 17): the viewing list (page and exact total in one statement, run UNPREPARED
  // as the API runs it); the brochure page's reads (what the API's ORM look-ups and its one
  // prepared read fetch: the brochure by slug, the agency, the agent card, the copies in order)
  // and its one UPDATE per counted view (the API's text)
  viewingList: (reader, filters, offset, limit) =>
    viewingList.viewingListStatement(reader, filters, offset, limit),
  brochureBySlug: (slug) => ({ sql: 'select * from brochures where slug = ? limit 1', params: [slug] }),
  organizationById: (organizationId) => ({
    sql: 'select * from organizations where id = ? limit 1',
    params: [organizationId],
  }),
  agentOfMember: (organizationId, userId) => ({
    sql: 'select * from agents where organization_id = ? and clerk_user_id = ? limit 1',
    params: [organizationId, userId],
  }),
  brochureListings: (brochureId, organizationId) => ({
    sql: `select snapshot, edits from brochure_listings
               where brochure_id = ? and organization_id = ?
               order by position, id`,
    params: [brochureId, organizationId],
  }),
  countView: (brochureId, now) => ({
    sql: `update brochures
          set view_count = view_count + 1,
              last_viewed_at = greatest(coalesce(last_viewed_at, ?::timestamptz), ?::timestamptz)
        where id = ? and status = 'active' and expires_at > ?`,
    params: [now, now, brochureId, now],
  }),
  insertInquiry: (row) => ({
    sql: `insert into lead_inquiries (id, organization_id, lead_id, origin, message, listing, actor, occurred_at)
          values (?, ?, ?, ?, ?, ?::jsonb, ?, ?)`,
    params: [
      row.id,
      row.organizationId,
      row.leadId,
      row.origin,
      row.message,
      row.listing === null ? null : JSON.stringify(row.listing),
      row.actor,
      row.now,
    ],
  }),
};
// ----

const pool = new Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE || 10), // the API's pool size, from the same variable
  idleTimeoutMillis: 30_000, // as the API's pool: idle between rounds, it keeps its prepared statements
  options: '-c jit=off', // as the API's connections (NO_JIT)
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

/** The same statement as pg's unnamed one (`preparedRows(..., { prepare: false })`): bound, planned per run. */
function runUnnamed(statement, client = pool) {
  let n = 0;
  return client.query({ text: statement.sql.replace(/\?/g, () => `$${++n}`), values: statement.params });
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
  channels: row.channels ?? [],
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

/**
 * The organization's routing as the engine's snapshot, read under the routing lock (as the API's
 * RoutingSnapshots.load with `lock`): settings (the lock), routes with their state, the people
 * directory, who is away, open leads per person only when a `smart` strategy needs them.
 */
async function loadRouting(client, org, now) {
  const settings = (await run(SQL.lockRoutingSettings(org, now), client)).rows[0];
  const rows = (await run(SQL.routes(org), client)).rows;
  const directory = (await run(SQL.directory(org), client)).rows[0] ?? { members: [], teams: [] };
  const away = (await run(SQL.away(org, now), client)).rows;
  const needsOpenLeads = settings.smartEnabled || rows.some((row) => row.strategy === 'smart');
  const openLeads = needsOpenLeads
    ? Object.fromEntries((await run(SQL.openLeadCounts(org), client)).rows.map((r) => [r.userId, r.n]))
    : {};
  const routes = rows.map((row) => {
    const { pool } = routePool.expandPool(row.userIds, row.teamIds, directory.members, directory.teams);
    return {
      id: row.id,
      name: row.name,
      conditions: row.conditions,
      strategy: row.strategy,
      paused: row.paused,
      pool,
      weights: row.weights,
      schedule: row.schedule,
      dailyCap: row.dailyCap,
      reassignAfterMinutes: row.reassignAfterMinutes,
      state: {
        lastAssigneeId: row.lastAssigneeId,
        received: row.received ?? {},
        today: row.todayDay ? { day: row.todayDay, counts: row.todayCounts ?? {} } : null,
      },
    };
  });
  const smartTeam =
    settings.smartUserIds === null && settings.smartTeamIds === null
      ? directory.members.map((m) => m.userId)
      : routePool
          .expandPool(
            settings.smartUserIds ?? [],
            settings.smartTeamIds ?? [],
            directory.members,
            directory.teams,
          )
          .members.map((m) => m.userId);
  const utcDay = routeClock.wallTime(now, null).day;
  return {
    settings,
    routes,
    utcDay,
    snapshot: {
      routes,
      activeUserIds: directory.members.map((m) => m.userId),
      awayUntil: Object.fromEntries(away.map((row) => [row.userId, new Date(row.until).toISOString()])),
      smartRouting: { enabled: settings.smartEnabled, team: smartTeam },
      receivedToday: settings.todayDay === utcDay ? settings.todayCounts : {},
      openLeads,
      lastAssignedAt: settings.lastAssigned,
      names: Object.fromEntries(directory.members.map((m) => [m.userId, m.name])),
    },
  };
}

/**
 * Routing of a new lead inside the intake's transaction (the API's RoutingLeadRouter and
 * LeadAssigner): the lead row locked, the routing lock and snapshot, the engine's pure `decide`,
 * then the route's state, the organization's counters and the decision log. The assignee, or null.
 */
async function routeLead(client, org, leadId, now) {
  const locked = (await run(SQL.lockLeadForRouting(org, leadId), client)).rows[0];
  if (!locked || locked.assigneeIds.length > 0) return null;
  const loaded = await loadRouting(client, org, now);
  const facts = {
    source: locked.source,
    origin: locked.origin,
    leadType: locked.leadType,
    language: locked.language,
    country: locked.country,
    tagIds: locked.tagIds,
    growthAreaId: locked.growthAreaId,
    hasPhone: locked.hasPhone,
    hasEmail: locked.hasEmail,
    arrivedAt: new Date(locked.arrivedAt).toISOString(),
  };
  const decided = routingEngine.decide(loaded.snapshot, facts, now);
  if (!decided.userId) return null;
  const userId = decided.userId;
  const plusOne = (counts) => ({ ...counts, [userId]: (counts[userId] ?? 0) + 1 });
  const route = decided.ruleId ? loaded.routes.find((r) => r.id === decided.ruleId) : null;
  if (route) {
    await run(
      SQL.saveRouteState(org, route.id, {
        lastAssigneeId: userId,
        received: plusOne(route.state.received),
        todayDay: routeClock.wallTime(now, route.schedule?.zone ?? null).day,
        todayCounts: plusOne(routingEngine.todayCounts(route, now)),
      }),
      client,
    );
  }
  const active = new Set(loaded.snapshot.activeUserIds);
  const lastAssigned = Object.fromEntries(
    Object.entries(loaded.settings.lastAssigned).filter(([id]) => active.has(id)),
  );
  lastAssigned[userId] = now.toISOString();
  await run(
    SQL.saveCounters(org, {
      todayDay: loaded.utcDay,
      todayCounts: plusOne(loaded.snapshot.receivedToday),
      lastAssigned,
    }),
    client,
  );
  const minutes = route?.reassignAfterMinutes ?? null;
  const reassignDueAt = minutes ? new Date(now.getTime() + minutes * 60_000) : null;
  await run(
    SQL.insertDecision({
      id: uuidv7(),
      organizationId: org,
      leadId,
      at: now,
      trigger: 'intake',
      ruleId: decided.ruleId,
      routeName: decided.routeName,
      strategy: decided.strategy,
      smartRouting: decided.smartRouting,
      userId,
      previousUserIds: [],
      why: decided.why,
      steps: decided.steps,
      reassignDueAt,
      reassignState: reassignDueAt ? 'pending' : null,
      chainUserIds: [userId],
    }),
    client,
  );
  // (a route with reassignAfterMinutes would also schedule a delayed job; the bench's has none)
  return { userId, actor: `routing:${decided.ruleId ?? 'smart'}` };
}

/**
 * `PUT /integrations/v1/leads/{externalId}`: one transaction, as the API's LeadIntakeService:
 * advisory locks on the external id, email and phone (sorted), the match (external id, then
 * email, then phone), a new lead inserted (the ORM's columns), routing of an unowned lead (above),
 * the external id remembered, then the flush: owners, history rows (`lead-created`,
 * `assignee-change`) and the `inquiry` row. 201/200 `{leadId, created, deduplicatedBy, assigneeIds}`.
 * A matched lead is not filled in (the bench's leads are all new; the checks only compare shapes).
 * No validation beyond what the SQL needs (the API validates the whole body first).
 */
async function putLead(key, externalId, body) {
  const org = key.organization_id;
  const email = contactKeys.emailKey(body.email);
  const phone = contactKeys.phoneKey(body.phoneNumber);
  if (typeof body.source !== 'string' || !body.source)
    throw new HttpError(400, 'VALIDATION_FAILED', 'source is required.');
  const origin = body.origin ?? contactKeys.defaultOrigin(key.connector);
  const actor = `integration:${key.id}`;
  const client = await pool.connect();
  try {
    await client.query('begin');
    const lockKeys = [
      `external:${key.connector}:${externalId}`,
      ...(email ? [`email:${email}`] : []),
      ...(phone ? [`phone:${phone}`] : []),
    ];
    for (const k of [...new Set(lockKeys)].sort()) await run(SQL.intakeLock(`intake:${org}:${k}`), client);
    const now = new Date();
    let match = null;
    const recordId = (await run(SQL.externalRecordId(org, key.connector, externalId), client)).rows[0]
      ?.record_id;
    if (recordId) {
      const found = (await run(SQL.leadInOrg(org, Number(recordId)), client)).rows[0];
      if (found) match = { id: Number(found.id), assigneeIds: found.assignee_ids, by: 'externalId' };
    }
    for (const [kind, value] of [
      ['email', email],
      ['phone', phone],
    ]) {
      if (match || !value) continue;
      const id = (await run(SQL.latestByContact(org, kind, value), client)).rows[0]?.id;
      const found = id ? (await run(SQL.leadInOrg(org, Number(id)), client)).rows[0] : null;
      if (found) match = { id: Number(found.id), assigneeIds: found.assignee_ids, by: kind };
    }
    const history = [];
    let leadId;
    let assigneeIds;
    if (match) {
      leadId = match.id;
      assigneeIds = match.assigneeIds;
    } else {
      const source = body.source;
      const inserted = await run(
        SQL.insertLead({
          organizationId: org,
          firstName: body.firstName ?? '',
          lastName: body.lastName ?? '',
          email: body.email?.trim() ?? '',
          phoneNumber: body.phoneNumber?.trim() ?? '',
          language: body.language ?? null,
          source,
          leadType: body.leadType ?? null,
          now,
          phoneKey: phone,
          origin,
          consent: body.consent
            ? {
                contact: body.consent.contact,
                marketing: body.consent.marketing,
                capturedAt: new Date(body.consent.capturedAt).toISOString(),
                wording: body.consent.wording ?? null,
              }
            : null,
          country: body.country?.toUpperCase() ?? null,
          growthAreaId: body.growthAreaId?.toLowerCase() ?? null,
        }),
        client,
      );
      leadId = Number(inserted.rows[0].id);
      assigneeIds = [];
      history.push({
        id: uuidv7(),
        organizationId: org,
        leadId,
        type: 'lead-created',
        payload: { source, leadGroupName: null, crmStatus: 'lead', changedBy: null, actor },
        now,
      });
    }
    let ownersChanged = false;
    if (assigneeIds.length === 0) {
      const routed = await routeLead(client, org, leadId, now);
      if (routed) {
        assigneeIds = [routed.userId];
        ownersChanged = true;
        history.push({
          id: uuidv7(),
          organizationId: org,
          leadId,
          type: 'assignee-change',
          payload: {
            addedUserIds: [routed.userId],
            removedUserIds: [],
            changedBy: null,
            source: 'api',
            actor: routed.actor,
          },
          now,
        });
      }
    }
    await run(SQL.rememberExternalId(org, key.connector, externalId, leadId, now), client);
    if (ownersChanged) await run(SQL.updateOwners(leadId, assigneeIds, now), client);
    if (history.length) await run(SQL.insertHistory(history), client);
    await run(
      SQL.insertInquiry({
        id: uuidv7(),
        organizationId: org,
        leadId,
        origin,
        message: body.message ?? null,
        listing: body.listing ?? null,
        actor,
        now,
      }),
      client,
    );
    await client.query('commit');
    return new WithStatus(match ? 200 : 201, {
      leadId,
      created: !match,
      deduplicatedBy: match?.by ?? null,
      assigneeIds,
    });
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

const PUBLIC_BASE_URL = (process.env.PUBLIC_BASE_URL ?? 'http://localhost').replace(/\/+$/, '');

/** A list row as the API's `toDocumentRowJson` writes it (a share whose time has passed reads as revoked). */
function documentRow(row, attachedLeadCount, now) {
  const expired = row.share_expires_at !== null && new Date(row.share_expires_at) <= now;
  const live =
    row.visibility === 'public' && row.share_token !== null && row.share_revoked_at === null && !expired;
  return {
    id: row.id,
    title: row.title,
    kind: row.kind,
    visibility:
      row.visibility === 'public' && expired && row.share_revoked_at === null
        ? 'organization'
        : row.visibility,
    sizeBytes: Number(row.size_bytes),
    createdBy: row.created_by,
    assigneeIds: row.assignee_ids,
    shareUrl: live ? `${PUBLIC_BASE_URL}/d/${row.share_token}` : null,
    attachedLeadCount,
    attachedListingCount: row.attached_listing_ids.length,
    folderId: row.folder_id,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/**
 * `GET /v1/documents?q=&limit=&offset=` (issue 15): the plan rule (documents need an active plan),
 * the API's own list statement unprepared, the page's attachment counts, `{data, hasMore,
 * nextOffset, total}`. Only `q`, `limit` and `offset` are read (what the benchmark sends).
 */
async function listDocuments(key, params) {
  if (!key.plan_active) throw new HttpError(403, 'PLAN_REQUIRED', 'An active plan is required.');
  const offset = Number(params.get('offset') ?? 0);
  if (!Number.isInteger(offset) || offset < 0) throw new HttpError(400, 'VALIDATION_FAILED', 'Bad paging.');
  const limit = positive(params.get('limit'), 20);
  const q = params.get('q')?.trim();
  if (limit > 50 || (q && q.length > 128)) throw new HttpError(400, 'VALIDATION_FAILED', 'Bad query.');
  const viewer = { userId: key.created_by_id, isAdmin: key.owner_role === 'admin' };
  const filters = { q: q || undefined, mine: false, sort: 'updated' };
  const { rows } = await runUnnamed(SQL.documentList(key.organization_id, viewer, filters, offset, limit));
  const found = rows.filter((row) => row.id !== null);
  const counts = new Map();
  if (found.length) {
    const counted = await run(SQL.documentAttachmentCounts(found.map((row) => row.id)));
    for (const row of counted.rows) counts.set(row.documentId, row.n);
  }
  const now = new Date();
  const data = found.map((row) => documentRow(row, counts.get(row.id) ?? 0, now));
  const total = Number(rows[0]?.total ?? 0);
  const hasMore = data.length > 0 && offset + data.length < total;
  return { data, hasMore, nextOffset: hasMore ? offset + data.length : null, total };
}

/**
 * `POST /properties/search` and `/properties/count` (issue 16): the API's own statements
 * unprepared, the rows mapped by the API's own pure `summaryOfRow`. Own scope or network; `limit`
 * 1-100 and `page` ≥ 1 checked, nothing else (the API validates the whole body first).
 */
async function searchListings(key, body) {
  const page = body.page ?? listingSearch.LISTING_SEARCH_DEFAULTS.page;
  const limit = body.limit ?? listingSearch.LISTING_SEARCH_DEFAULTS.limit;
  if (!Number.isInteger(page) || page < 1 || !Number.isInteger(limit) || limit < 1 || limit > 100)
    throw new HttpError(400, 'VALIDATION_FAILED', 'Bad paging.');
  const scope = { organizationId: key.organization_id, scope: body.scope ?? 'own', source: 'internal' };
  const sort = body.sort ?? listingSearch.LISTING_SEARCH_DEFAULTS.sort;
  const { rows } = await runUnnamed(SQL.listingPage(scope, body, sort, (page - 1) * limit, limit));
  const data = rows
    .filter((row) => row.id !== null)
    .map((row) => listingSummary.summaryOfRow(row, key.organization_id, PUBLIC_BASE_URL));
  const total = Number(rows[0]?.total ?? 0);
  return { data, page, limit, total, hasMore: page * limit < total };
}

async function countListings(key, body) {
  const scope = { organizationId: key.organization_id, scope: body.scope ?? 'own', source: 'internal' };
  const { rows } = await runUnnamed(SQL.listingCount(scope, body));
  return { count: rows[0].count };
}

/** `GET /v1/viewings` (offset paging, `from`/`to`; the other filters are not read): the API's statement, unprepared, and its row mapping. */
async function listViewings(key, params) {
  const limit = params.get('limit') === null ? 20 : Number(params.get('limit'));
  const offset = params.get('offset') === null ? 0 : Number(params.get('offset'));
  if (!Number.isInteger(limit) || limit < 1 || limit > 100 || !Number.isInteger(offset) || offset < 0)
    throw new HttpError(400, 'VALIDATION_FAILED', 'Bad paging.');
  const moment = (name) => {
    const value = params.get(name);
    if (value === null) return undefined;
    const date = new Date(value);
    if (Number.isNaN(date.getTime())) throw new HttpError(400, 'VALIDATION_FAILED', `Bad ${name}.`);
    return date;
  };
  const reader = {
    organizationId: key.organization_id,
    member:
      key.owner_role === 'admin' ? null : { userId: key.created_by_id, leadReach: SQL.reach(scopeOf(key)) },
  };
  const { rows } = await runUnnamed(
    SQL.viewingList(reader, { from: moment('from'), to: moment('to') }, offset, limit),
  );
  const data = rows.filter((row) => row.id !== null).map(viewingView.toViewingJson);
  const total = Number(rows[0]?.total ?? 0);
  const hasMore = data.length > 0 && offset + data.length < total;
  return { data, hasMore, nextOffset: hasMore ? offset + data.length : null, total };
}

/**
 * `GET /v1/events?after&limit` (issue 19) as an admin reads it (`types` and members are not read):
 * the API's page statement, prepared like the admin's, its row mapping, `hasMore` and `nextAfter`.
 */
async function listEvents(key, params) {
  const limit = params.get('limit') === null ? 100 : Number(params.get('limit'));
  const after = params.get('after') === null ? 0 : Number(params.get('after'));
  if (!Number.isInteger(limit) || limit < 1 || limit > 500 || !Number.isInteger(after) || after < 0)
    throw new HttpError(400, 'VALIDATION_FAILED', 'Bad paging.');
  if (key.owner_role !== 'admin')
    throw new HttpError(400, 'VALIDATION_FAILED', 'The baseline reads as an admin only.');
  const { rows } = await run(
    eventsSql.eventPageStatement({
      organizationId: key.organization_id,
      after,
      take: limit + 1,
      types: null,
      leadReach: null,
    }),
  );
  const purgedThrough = Number(rows[0].purged_through);
  if (eventsQueries.isExpired(after, purgedThrough))
    throw new HttpError(400, 'EVENT_CURSOR_EXPIRED', 'Events after this sequence are past the retention.');
  const events = rows.filter((row) => row.id !== null).map(eventView.toEventJson);
  const data = events.slice(0, limit);
  return {
    data,
    hasMore: events.length > limit,
    nextAfter: data.length > 0 ? data[data.length - 1].sequence : after,
  };
}

/** An HTML answer (the public pages). */
class Html {
  constructor(status, html) {
    this.status = status;
    this.html = html;
  }
}
const BROCHURE_SLUG = /^[A-Za-z0-9-]{1,100}$/;
const NOT_A_PERSON = /bot|crawler|spider|preview/i;

/**
 * `GET /b/{slug}` as the API's BrochurePageService: the brochure by slug (404 unknown, 410 revoked
 * or expired), its agency (404 disabled), then the copies and the agent card together, the API's
 * own renderer, and one UPDATE when the GET counts as a view. Errors as JSON (not measured).
 */
async function brochurePage(req, slug) {
  if (!BROCHURE_SLUG.test(slug)) throw new HttpError(404, 'NOT_FOUND', 'Page not found.');
  const brochure = (await run(SQL.brochureBySlug(slug))).rows[0];
  if (!brochure) throw new HttpError(404, 'NOT_FOUND', 'Page not found.');
  const now = new Date();
  if (brochure.status === 'revoked' || brochure.expires_at <= now)
    throw new HttpError(410, 'GONE', 'This brochure is no longer available.');
  const org = (await run(SQL.organizationById(brochure.organization_id))).rows[0];
  if (!org || org.disabled) throw new HttpError(404, 'NOT_FOUND', 'Page not found.');
  const [copies, agents] = await Promise.all([
    run(SQL.brochureListings(brochure.id, brochure.organization_id)),
    run(SQL.agentOfMember(brochure.organization_id, brochure.agent_user_id)),
  ]);
  const agent = agents.rows[0];
  const html = brochureRenderer.renderBrochurePage(
    {
      title: brochure.title,
      recipientName: brochure.recipient_name,
      recipientNote: brochure.recipient_note,
      themeName: brochure.theme_name,
      accentColorOverride: brochure.accent_color_override,
      showLocations: brochure.show_locations,
      expiresAt: brochure.expires_at,
    },
    copies.rows.map((row) => ({ snapshot: row.snapshot ?? {}, edits: row.edits ?? {} })),
    agent
      ? {
          firstName: agent.first_name,
          lastName: agent.last_name,
          title: agent.title,
          displayEmail: agent.display_email,
          phoneNumber: agent.phone_number,
          avatarUrl: agent.avatar_url,
        }
      : null,
  );
  if (req.method === 'GET' && !NOT_A_PERSON.test(req.headers['user-agent'] ?? '')) {
    await run(SQL.countView(brochure.id, now));
  }
  return new Html(200, html);
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
    await run(SQL.previewSettings, client);
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

// ---- search (issue 18)
const SEARCH_EVIDENCE = 3;
const reranker = new searchRerank.Bm25fReranker();

/**
 * The caller's reach as SearchService builds it (LeadAccess.searchSql): own leads on `l` (none for an
 * admin: the organization is the reach), plus shares.
 */
const searchReachOf = (key) => ({
  organizationId: key.organization_id,
  own: scopeOf(key).memberId === null ? null : SQL.reach(scopeOf(key)),
  shared: SQL.searchShares({ organizationId: key.organization_id, userId: key.created_by_id }),
});

/**
 * `POST /v1/search {query, maxResults}` as SearchService.run: the analyze statement, retrieve, the
 * same `Bm25fReranker` on the same `rerankQuery`, grouping by lead, the trigram fill-up when fewer
 * leads than asked, headlines of the chunks shown. `leadId` and the dates are not read (the
 * benchmark sends none); the checks are the DTO's bounds only.
 */
async function searchCrm(key, body) {
  const started = performance.now();
  const query = typeof body?.query === 'string' ? body.query.trim() : '';
  const maxResults = body?.maxResults ?? searchService.DEFAULT_MAX_RESULTS;
  if (
    query.length < 1 ||
    query.length > 500 ||
    !Number.isInteger(maxResults) ||
    maxResults < 1 ||
    maxResults > 30
  )
    throw new HttpError(400, 'VALIDATION_FAILED', 'Bad search.');
  // one read transaction for the whole pipeline, as SearchService.run
  const client = await pool.connect();
  try {
    await client.query('begin');
    const answer = await searchCrmIn(client, key, query, maxResults, started);
    await client.query('commit');
    return answer;
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

async function searchCrmIn(client, key, query, maxResults, started) {
  const plan = searchQuery.planQuery(query);
  const searchReach = searchReachOf(key);
  const filters = {};
  // the same retrieval plan (retrieveNewest): each concept whole or in slices, unnamed statements
  const inTransaction = async (statement, unprepared) =>
    (await (unprepared ? runUnnamed(statement, client) : run(statement, client))).rows;
  // the search's settings and the trigram thresholds, the retrieval's after the analyze statement
  await inTransaction(SQL.searchSettings);
  const [analyzed] = await inTransaction(
    SQL.searchAnalyze(key.organization_id, [...plan.terms, ...plan.phraseWords], []),
  );
  await inTransaction(SQL.searchRetrievalSettings);
  let rows = [];
  if (plan.terms.length > 0) {
    const [planned] = await inTransaction(
      SQL.searchConcepts(key.organization_id, analyzed.configs, {
        all: searchService.websearchPerConfig(plan, analyzed.configs, analyzed.lexemes),
        own: searchService.websearchPerConfig(plan, analyzed.configs, analyzed.lexemes, 'own'),
      }),
    );
    rows = await searchRetrieval.retrieveNewest(
      inTransaction,
      searchReach,
      searchRetrieval.conceptsToRetrieve(planned),
      Number(planned.chunks),
      filters,
    );
  }
  const candidates = rows.map((row) => ({
    chunkId: String(row.id),
    leadId: Number(row.lead_id),
    source: row.source_kind,
    occurredAt: new Date(row.occurred_at),
    rank: Number(row.rank),
    tsv: row.tsv,
    sourceId: row.source_id,
    untrusted: row.untrusted,
    organizationLeadMatches: Number(row.lead_matches),
    organizationLeadKinds: Number(row.lead_kinds),
  }));
  const { ranked, reranked } = reranker.rerank(
    candidates,
    searchService.rerankQuery(plan, analyzed.lexemes),
    new Date(),
  );
  const groups = new Map();
  for (const { candidate, score } of ranked) {
    const group = groups.get(candidate.leadId) ?? {
      leadId: candidate.leadId,
      score,
      chunks: [],
      matchCount: candidate.organizationLeadMatches,
      sourceCount: candidate.organizationLeadKinds,
    };
    group.chunks.push({
      id: candidate.chunkId,
      source: candidate.source,
      sourceId: candidate.sourceId,
      occurredAt: candidate.occurredAt,
      untrusted: candidate.untrusted,
    });
    groups.set(candidate.leadId, group);
  }
  const found = [...groups.values()];
  if (found.length < maxResults && plan.trigramWords.length > 0) {
    const wanted = maxResults - found.length;
    // the trigram pass: the agency's words like the query's, then their passages by full text
    const similar = await inTransaction(
      SQL.searchSimilarWords(key.organization_id, [...new Set(plan.trigramWords.map(searchWords.foldWord))]),
    );
    const similarity = new Map();
    // closest first (the statement's order), each word once
    for (const row of similar) {
      const lexeme = `'${row.word.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
      if (!similarity.has(lexeme)) similarity.set(lexeme, Number(row.similarity));
    }
    if (similarity.size > 0) {
      const lexemes = [...similarity.keys()];
      const [estimates] = await inTransaction(SQL.searchLexemeEstimates(key.organization_id, lexemes));
      const fuzzyRows = await searchRetrieval.retrieveNewest(
        inTransaction,
        searchReach,
        searchRetrieval.estimatedConcepts(lexemes, estimates),
        Number(estimates.chunks),
        filters,
        searchRetrieval.RETRIEVAL_LIMITS,
        'concept',
      );
      const known = new Set(found.map((g) => g.leadId));
      const closestOf = (tsv) => {
        for (const [lexeme, value] of similarity) if (tsv.includes(`${lexeme}:`)) return value;
        return 0;
      };
      const scored = fuzzyRows
        .filter((row) => !known.has(Number(row.lead_id)))
        .map((row) => ({ row, similarity: closestOf(row.tsv) }));
      const filled = new Map();
      for (const { row, similarity: best } of scored) {
        const leadId = Number(row.lead_id);
        const group = filled.get(leadId) ?? {
          leadId,
          score: -1 + best / 2,
          chunks: [],
          matchCount: Number(row.lead_matches),
          sourceCount: Number(row.lead_kinds),
          fuzzy: true,
        };
        group.chunks.push({
          id: row.id,
          source: row.source_kind,
          sourceId: row.source_id,
          occurredAt: new Date(row.occurred_at),
          untrusted: row.untrusted,
        });
        filled.set(leadId, group);
      }
      found.push(...[...filled.values()].slice(0, wanted));
    }
  }
  const shown = found.slice(0, maxResults);
  const ids = shown.flatMap((g) => g.chunks.slice(0, SEARCH_EVIDENCE).map((c) => c.id));
  const snippets = new Map();
  if (ids.length) {
    const headline = searchService.websearchPerConfig(plan, analyzed.configs, analyzed.lexemes, 'headline');
    const fuzzyIds = new Set(shown.filter((g) => g.fuzzy).flatMap((g) => g.chunks.map((c) => String(c.id))));
    const lines = await inTransaction(SQL.searchHeadlines(searchReach, ids, analyzed.configs, headline));
    for (const line of lines)
      snippets.set(
        String(line.id),
        fuzzyIds.has(String(line.id))
          ? searchSnippet.fuzzySnippetOf(line.text, plan.trigramWords)
          : searchSnippet.snippetOf(line.text, line.headline),
      );
  }
  return {
    matches: shown.map((group) => {
      const evidence = group.chunks.slice(0, SEARCH_EVIDENCE);
      return {
        leadId: group.leadId,
        matchCount: group.matchCount,
        sourceCount: group.sourceCount,
        bestMatchAt: evidence[0].occurredAt.toISOString(),
        evidence: evidence.map((chunk) => ({
          snippet: snippets.get(chunk.id) ?? '',
          source: chunk.source,
          sourceId: chunk.sourceId,
          occurredAt: chunk.occurredAt.toISOString(),
          untrusted: chunk.untrusted,
        })),
      };
    }),
    tookMs: Math.round(performance.now() - started),
    reranked,
  };
}

/**
 * `POST /v1/leads/{id}/notes {content}` as NotesService.create: the lead within the key's reach
 * (404 otherwise), the note's insert, and (`withIndex`) the indexer's statements in the same
 * transaction, as ChunkIndexer.upsertSources runs them (the old passages of the source removed,
 * the new ones cut by `chunkText` and inserted). 201 with the note.
 */
async function createNote(key, leadId, body, withIndex, withEvent = false) {
  if (withEvent && !outbox) throw new HttpError(400, 'BAD_REQUEST', 'This build has no event outbox.');
  const content = body?.content;
  if (typeof content !== 'string' || content.trim().length === 0 || content.length > 10_000)
    throw new HttpError(400, 'VALIDATION_FAILED', 'Bad content.');
  const { rows: found } = await run(SQL.leadById(scopeOf(key), leadId));
  if (!found.length || found[0].id === null) throw new HttpError(404, 'NOT_FOUND', 'Lead not found.');
  const now = new Date();
  const note = {
    id: uuidv7(),
    organizationId: key.organization_id,
    leadId,
    authorId: key.created_by_id,
    content,
    now,
  };
  const client = await pool.connect();
  try {
    await client.query('begin');
    await run(SQL.insertNote(note), client);
    if (withIndex) {
      await run(SQL.removeSources(note.organizationId, ['note'], [note.id]), client);
      const rows = searchChunking.chunkText(content).map((text, position) => ({
        leadId,
        sourceKind: 'note',
        sourceId: note.id,
        position,
        occurredAt: now,
        language: null,
        text,
        untrusted: false,
      }));
      if (rows.length) await run(SQL.insertChunks(note.organizationId, rows), client);
    }
    if (withEvent) {
      // the Outbox's statement, as its beforeTransactionCommit subscriber runs it: the last before COMMIT
      const object = {
        id: note.id,
        leadId,
        authorId: note.authorId,
        content,
        isPinned: false,
        occurredAt: null,
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
      };
      const draft = {
        organizationId: note.organizationId,
        type: 'note.created',
        occurredAt: now,
        subject: { type: 'note', id: note.id, leadId },
        recordVersion: 1,
        actor: { type: 'api_key', id: key.id, userId: key.created_by_id },
        data: { object },
      };
      await run(outbox.insertEventsStatement(note.organizationId, [draft]), client);
    }
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
  return new WithStatus(201, {
    id: note.id,
    leadId,
    authorId: note.authorId,
    content,
    isPinned: false,
    occurredAt: null,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  });
}

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
  const intake = /^\/integrations\/v1\/leads\/([^/]+)$/.exec(pathname);
  if (intake && req.method === 'PUT') {
    const key = await authenticateIntegration(req);
    const externalId = decodeURIComponent(intake[1]);
    if (!EXTERNAL_ID.test(externalId)) throw new HttpError(400, 'VALIDATION_FAILED', 'Bad externalId.');
    return putLead(key, externalId, await jsonBody(req));
  }
  if (pathname === '/v1/queues/preview' && req.method === 'POST') {
    const key = await authenticate(req);
    return previewQueue(key, await jsonBody(req));
  }
  if (pathname === '/v1/search' && req.method === 'POST') {
    const key = await authenticate(req);
    return searchCrm(key, await jsonBody(req));
  }
  const notes = /^\/v1\/leads\/(\d{1,15})\/notes$/.exec(pathname);
  if (notes && req.method === 'POST') {
    const key = await authenticate(req);
    return createNote(
      key,
      Number(notes[1]),
      await jsonBody(req),
      url.searchParams.get('index') !== '0',
      url.searchParams.get('events') === '1',
    );
  }
  if (pathname === '/properties/search' && req.method === 'POST') {
    const key = await authenticate(req);
    return searchListings(key, await jsonBody(req));
  }
  if (pathname === '/properties/count' && req.method === 'POST') {
    const key = await authenticate(req);
    return countListings(key, await jsonBody(req));
  }
  if (req.method !== 'GET' && req.method !== 'HEAD')
    throw new HttpError(405, 'METHOD_NOT_ALLOWED', 'GET only.');
  const page = /^\/b\/([^/]+)$/.exec(pathname);
  if (page) return brochurePage(req, decodeURIComponent(page[1]));
  if (pathname === '/health') {
    await pool.query('select 1');
    return { status: 'ok' };
  }
  const key = await authenticate(req);
  if (pathname === '/v1/me') return me(key);
  if (pathname === '/v1/leads') return listLeads(key, url.searchParams);
  if (pathname === '/v1/deals') return listDeals(key, url.searchParams);
  if (pathname === '/v1/documents') return listDocuments(key, url.searchParams);
  if (pathname === '/v1/viewings') return listViewings(key, url.searchParams);
  if (pathname === '/v1/events') return listEvents(key, url.searchParams);
  const byId = /^\/v1\/leads\/(\d{1,15})$/.exec(pathname);
  if (byId) return leadById(key, Number(byId[1]));
  throw new HttpError(404, 'NOT_FOUND', 'No such route.');
}

const server = http.createServer((req, res) => {
  route(req).then(
    (answer) => {
      if (answer instanceof Html) {
        res.writeHead(answer.status, {
          ...publicPage.PUBLIC_PAGE_HEADERS,
          Vary: 'Accept',
          'content-type': publicPage.HTML_CONTENT_TYPE,
        });
        res.end(answer.html);
        return;
      }
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
