'use strict';
// The workloads, by name. Each draws its request paths from the seeded agency (`ctx`, built once
// by `prepareContext`), with a seeded generator, so every run of every side gets the same sequence.
// `legs` defaults to the API against the baseline on the same path; `door` compares two routes of
// the same API process instead. `target`: issue 9's targets, checked in the report; `before`: the
// issue's table (2026-11-2x, this machine, the earlier harness), printed beside the new figures.
const { log, sql, seededRandom } = require('./lib');

const PAGES = 50;

const WORKLOADS = {
  door: {
    title: '`GET /v1/me` against `GET /health` on the same API process (what the `/v1` door adds)',
    row: '`GET /v1/me` ÷ `GET /health` (door)',
    legs: [
      { side: 'api', route: '/v1/me', path: () => () => '/v1/me' },
      { side: 'api', route: '/health', path: () => () => '/health', reference: true },
    ],
  },
  me: {
    title: '`GET /v1/me`',
    row: '`GET /v1/me`',
    path: () => () => '/v1/me',
    target: { ratio: 0.5 },
    before: { apiRps: 1218, baselineRps: 4829, ratio: 0.26, apiP99: 74 },
  },
  list: {
    title: `\`GET /v1/leads?limit=25&page=p\`, p uniform in 1-${PAGES}`,
    row: `\`GET /v1/leads?limit=25&page=p\`, p uniform in 1-${PAGES}`,
    path: () => {
      const random = seededRandom(1);
      return () => `/v1/leads?limit=25&page=${1 + Math.floor(random() * PAGES)}`;
    },
    target: { ratio: 0.8 },
    before: { apiRps: 66, baselineRps: 70, ratio: 0.94, apiP99: 813 },
  },
  'list-page50': {
    title: `\`GET /v1/leads?limit=25&page=${PAGES}\` (the deepest page of the list workload)`,
    row: `\`GET /v1/leads?limit=25&page=${PAGES}\``,
    path: () => () => `/v1/leads?limit=25&page=${PAGES}`,
    target: { ratio: 0.8, openP99Ms: 40 },
  },
  lead: {
    title: '`GET /v1/leads/{id}`, id uniform over the agency’s leads',
    row: '`GET /v1/leads/{id}`',
    path: (ctx) => {
      const random = seededRandom(2);
      return () => `/v1/leads/${ctx.leadIds[Math.floor(random() * ctx.leadIds.length)]}`;
    },
    target: { ratio: 0.8, apiRps: 2000 },
    before: { apiRps: 868, baselineRps: 1532, ratio: 0.46, apiP99: 98 },
  },
  'search-rare': {
    title: '`GET /v1/leads?limit=25&search=` a rare term',
    row: (ctx) => `\`GET /v1/leads?search=${ctx.rare.term}\` rare term (${ctx.rare.matches} matches)`,
    path: (ctx) => () => `/v1/leads?limit=25&search=${encodeURIComponent(ctx.rare.term)}`,
    target: { ratio: 0.85 },
    before: { apiRps: 241, baselineRps: 294, ratio: 0.91, apiP99: 253 },
  },
  'search-common': {
    title: '`GET /v1/leads?limit=25&search=` a common term',
    row: (ctx) =>
      `\`GET /v1/leads?search=${ctx.common.term}\` common term (${ctx.common.matches.toLocaleString('en')} matches)`,
    path: (ctx) => () => `/v1/leads?limit=25&search=${encodeURIComponent(ctx.common.term)}`,
    target: { ratio: 0.85 },
    before: { apiRps: 104, baselineRps: 127, ratio: 0.83, apiP99: 541 },
  },
  deals: {
    title: "`GET /v1/deals?status=open`: the key's person's open deals (capped at 1,000) with participants",
    row: '`GET /v1/deals?status=open`',
    path: () => () => '/v1/deals?status=open',
  },
};

const DEFAULT_WORKLOADS = ['me', 'list', 'list-page50', 'lead', 'search-rare', 'search-common', 'door'];

/**
 * What the workloads draw from, read from the seeded agency with SQL: every lead id, a rare search
 * term (an email's local part matching about 3 leads) and a common one (the last name matching
 * the most leads; thousands on the demo agency).
 */
async function prepareContext(databaseUrl, organizationId) {
  const leadIds = (
    await sql(databaseUrl, 'select id from leads where organization_id = $1 order by id', [organizationId])
  ).map((row) => Number(row.id));
  const matches = `(select count(*) from leads l
                     where l.organization_id = $1 and l.search_text like '%' || c.term || '%')::int`;
  const plain = `c.term !~ '[%_\\\\]'`;
  const [common] = await sql(
    databaseUrl,
    `select term, matches from (
       select c.term, ${matches} as matches
         from (select distinct lower(last_name) as term from leads where organization_id = $1) c
        where ${plain}) x
      order by matches desc, term limit 1`,
    [organizationId],
  );
  const [rare] = await sql(
    databaseUrl,
    `select term, matches from (
       select c.term, ${matches} as matches
         from (select split_part(email, '@', 1) as term from leads where organization_id = $1
                order by created_at desc, id desc limit 300) c
        where ${plain}) x
      order by abs(matches - 3), term limit 1`,
    [organizationId],
  );
  log(
    `search terms: rare "${rare.term}" (${rare.matches} matches), common "${common.term}" (${common.matches})`,
  );
  return { organizationId, leadIds, rare, common };
}

function selectWorkloads(names) {
  const unknown = names.filter((name) => !WORKLOADS[name]);
  if (unknown.length) {
    throw new Error(`unknown workload(s) ${unknown.join(', ')}; known: ${Object.keys(WORKLOADS).join(', ')}`);
  }
  return names.map((name) => ({ name, ...WORKLOADS[name] }));
}

module.exports = { WORKLOADS, DEFAULT_WORKLOADS, prepareContext, selectWorkloads };
