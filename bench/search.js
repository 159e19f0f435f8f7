'use strict';
// Issue 18's workloads (bench/README.md "Issue 18: search", W7), not in the default set:
// - `crm-search-rare`, `crm-search-common`, `crm-search-multilingual`, `crm-search-typo`:
//   `POST /v1/search {query, maxResults: 10}` as the agency's admin, 2 connections, the queries of
//   the class in rotation (drawn from the planted topics; common: ordinary template words), over
//   the 1,000,000 events of bench/search-data.js; against the baseline's same route (the same
//   built statements, the same `Bm25fReranker`, the same query plan). After the runs: recall@10 of
//   the class's planted topics on both sides, and (rare, common) the retrieve statement's plan.
// - `crm-search-note`: what indexing costs a write: `POST /v1/leads/{id}/notes` on the API (its
//   indexer in the transaction), and on the baseline the same note insert with and without the
//   indexer's two statements in its transaction.
// Their database is kept between runs (run.js, `searchDatabase`): the data is built once.
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { Client } = require('pg');
const { ROOT, log, sql, seededRandom, getJson, canonical, interleavedLegs, round } = require('./lib');
const { COMMON_QUERIES, EVENTS, plan, buildSearchData, sizes, stripAccents } = require('./search-data');

const env = process.env;
/** Connections of the closed loop (the issue: 2). */
const CONNECTIONS = Number(env.BENCH_SEARCH_CONNECTIONS ?? 2);
/** The organization's search figure the benchmark sets (`ops search-rate`). */
const SEARCH_RATE = 1_000_000;
/** Leads answered per search (the API's default). */
const MAX_RESULTS = 10;
/** `crm-search-note`: notes per leg (a count: every leg writes the same notes), and before the rounds. */
const NOTE_REQUESTS = Number(env.BENCH_SEARCH_NOTES ?? 2000);
const NOTE_WARMUP = Number(env.BENCH_SEARCH_NOTE_WARMUP ?? 100);

const built = (file) => require(path.join(ROOT, 'dist/libs', file));
const n = (value) => (value === null || value === undefined ? '–' : Number(value).toLocaleString('en'));
const ms = (value) =>
  value === null || value === undefined ? '–' : String(round(value, value < 10 ? 1 : 0));

// ---------------------------------------------------------------- the data and the limit

/**
 * `npm run ops -- search-rate --org <id> --per-minute 1000000`, as an operator raises the
 * agency's shared search limit; when the build has no such command yet, the column it writes.
 */
function raiseSearchLimit(databaseUrl, organizationId) {
  const out = spawnSync(
    process.execPath,
    [
      path.join(ROOT, 'dist/apps/ops/src/main.js'),
      'search-rate',
      '--org',
      organizationId,
      '--per-minute',
      String(SEARCH_RATE),
    ],
    {
      cwd: ROOT,
      env: { ...env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', REDIS_URL: '' },
      encoding: 'utf8',
    },
  );
  if (out.status === 0) {
    log(`search: ops search-rate --per-minute ${SEARCH_RATE}: ${out.stdout.trim().slice(0, 300)}`);
    return 'ops search-rate';
  }
  log(
    `search: ops search-rate failed (${out.status}: ${(out.stderr || out.stdout).trim().slice(0, 300)}); ` +
      'setting organizations.search_rate_per_minute directly',
  );
  return null;
}

/** The data (built once per kept database), the topics, the queries of each class, the raised limit. */
async function seedSearch({ databaseUrl, ctx, db, agency }) {
  if (ctx.search) return;
  let data = db?.data ?? null;
  let topics;
  if (!data) {
    ({ info: data, topics } = await buildSearchData({
      databaseUrl,
      organizationId: ctx.organizationId,
      leadIds: ctx.leadIds,
      db,
    }));
    await db?.remember?.('data', data);
  } else {
    topics = plan(ctx.leadIds).topics;
    log(
      `search: the kept data: ${n(data.events)} events, ${n(data.chunks)} chunks (built in ${data.seconds} s)`,
    );
  }
  let limitBy = raiseSearchLimit(databaseUrl, ctx.organizationId);
  if (!limitBy) {
    await sql(databaseUrl, 'update organizations set search_rate_per_minute = $2 where id = $1', [
      ctx.organizationId,
      SEARCH_RATE,
    ]);
    limitBy = 'sql (organizations.search_rate_per_minute)';
  }
  const queries = { common: COMMON_QUERIES.map((query) => ({ query })) };
  for (const topic of topics) (queries[topic.class] ??= []).push(topic);
  ctx.search = {
    data,
    topics,
    queries,
    limitBy,
    adminUserId: agency.admin.userId,
    adminKey: agency.admin.apiKey,
    sizesNow: await sizesNow(databaseUrl),
    recall: {},
  };
}

async function sizesNow(databaseUrl) {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await sizes(client);
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------- the answers

const searchBody = (query) => JSON.stringify({ query, maxResults: MAX_RESULTS });

/** An answer without its `tookMs` (each side's own clock), to compare the two sides. */
const comparable = (res) => {
  if (res.status !== 200) return `${res.status} ${canonical(res.body)}`;
  const { tookMs: _took, ...rest } = res.body;
  return `200 ${canonical(rest)}`;
};

async function searchOn(base, headers, query) {
  return getJson(
    base,
    '/v1/search',
    { ...headers, 'content-type': 'application/json' },
    'POST',
    searchBody(query),
  );
}

/**
 * Recall@10 of a topic: the share of its planted leads among the 10 leads answered (of the 10
 * answered that are planted leads, when it has more than 10).
 */
function recallOf(topic, answer) {
  const planted = new Set(topic.leadIds.map(Number));
  const found = (answer.body?.matches ?? []).map((m) => m.leadId).filter((id) => planted.has(id)).length;
  return found / Math.min(planted.size, MAX_RESULTS);
}

/** Recall@10 of every topic of the class on each leg, and whether the legs answered alike. */
async function recall(cls, legs, ctx, headers) {
  const topics = ctx.search.queries[cls];
  const perLeg = {};
  let alike = 0;
  const misses = [];
  // multilingual: whether the query's plan holds the subject as it was written (the thesaurus maps it there)
  const { planQuery } = built('search/src/domain/search-query.js');
  const bare = (text) => stripAccents(text.toLowerCase());
  const coveredRecall = [];
  const took = {};
  const statuses = {};
  for (const topic of topics) {
    const covered =
      cls !== 'multilingual' ||
      planQuery(topic.query).terms.some((term) => bare(term) === bare(topic.subject));
    const answers = [];
    for (const leg of legs) {
      // one query at a time: its latency alone (what the closed loop cannot show for queries slower than a round)
      const t0 = performance.now();
      answers.push(await searchOn(leg.server.base, headers, topic.query));
      (took[leg.name] ??= []).push(performance.now() - t0);
      (statuses[leg.name] ??= {})[answers.at(-1).status] =
        (statuses[leg.name][answers.at(-1).status] ?? 0) + 1;
    }
    if (answers.every((a) => comparable(a) === comparable(answers[0]))) alike += 1;
    for (const [i, leg] of legs.entries()) {
      const value = recallOf(topic, answers[i]);
      (perLeg[leg.name] ??= []).push(value);
      if (i === 0 && covered) coveredRecall.push(value);
      if (i === 0 && value < 1)
        misses.push({
          topic: topic.id,
          query: topic.query,
          subject: topic.subject,
          covered,
          planted: topic.leadIds.length,
          recall: round(value, 2),
        });
    }
  }
  const mean = (values) => round(values.reduce((a, b) => a + b, 0) / values.length, 3);
  const at = (values, p) => {
    const sorted = [...values].sort((a, b) => a - b);
    return round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)], 0);
  };
  const result = {
    topics: topics.length,
    // each recall query alone (one connection), per leg: p50 / p99 / max ms and the statuses
    alone: Object.fromEntries(
      Object.entries(took).map(([name, values]) => [
        name,
        { p50: at(values, 50), p99: at(values, 99), max: at(values, 100), statuses: statuses[name] },
      ]),
    ),
    byLeg: Object.fromEntries(Object.entries(perLeg).map(([name, values]) => [name, mean(values)])),
    perfect: perLeg[legs[0].name].filter((v) => v === 1).length,
    // the topics whose query the thesaurus (or the language itself) maps to the planted words
    covered: coveredRecall.length,
    coveredRecall: coveredRecall.length ? mean(coveredRecall) : null,
    alike,
    misses,
  };
  log(
    `${cls}: recall@10 ${JSON.stringify(result.byLeg)} over ${topics.length} topics (${result.perfect} complete), ` +
      `over the ${result.covered} whose plan holds the planted words ${result.coveredRecall}; answers alike on ${alike} of ${topics.length}; worst: ${JSON.stringify(misses.sort((a, b) => a.recall - b.recall).slice(0, 5))}`,
  );
  return result;
}

// ---------------------------------------------------------------- plans

/** The statement with `?` as `$n`. */
const numbered = (statement) => {
  let i = 0;
  return { text: statement.sql.replace(/\?/g, () => `$${++i}`), values: statement.params };
};

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the retrieve statement of `query` as the admin runs it: its
 * configurations from the analyze statement first, as the pipeline does.
 */
async function retrievePlan(ctx, query, withTrigram = false) {
  const searchSql = built('search/src/application/search.sql.js');
  const retrieval = built('search/src/application/retrieval.js');
  const { planQuery } = built('search/src/domain/search-query.js');
  const { foldWord } = built('search/src/domain/words.js');
  const { transactionSettingsStatement } = built('platform/src/db/transaction-settings.js');
  const reach = built('crm/src/domain/lead-reach.js');
  const queryPlan = planQuery(query);
  const searchReach = {
    organizationId: ctx.organizationId,
    // an admin (LeadAccess.searchSql): the organization is the reach
    own: null,
    shared: reach.leadSharesSql({ organizationId: ctx.organizationId, userId: ctx.search.adminUserId }),
  };
  const client = new Client({ connectionString: ctx.databaseUrl, options: '-c jit=off' });
  await client.connect();
  try {
    const analyze = numbered(
      searchSql.analyzeStatement(ctx.organizationId, [...queryPlan.terms, ...queryPlan.phraseWords], []),
    );
    const [analyzed] = (await client.query(analyze.text, analyze.values)).rows;
    // each configuration's own text, as the service builds it (websearchPerConfig), then the
    // retrieval plan as the pipeline runs it; the last retrieve statement is the one explained
    const { websearchPerConfig } = built('search/src/application/search.service.js');
    const statements = [];
    const runRows = async (statement) => {
      statements.push(statement);
      const n = numbered(statement);
      return (await client.query(n.text, n.values)).rows;
    };
    const [planned] = await runRows(
      searchSql.conceptQueriesStatement(ctx.organizationId, analyzed.configs, {
        all: websearchPerConfig(queryPlan, analyzed.configs, analyzed.lexemes),
        own: websearchPerConfig(queryPlan, analyzed.configs, analyzed.lexemes, 'own'),
      }),
    );
    const concepts = retrieval.conceptsToRetrieve(planned);
    // the search's and the retrieval's settings, as its transaction sets them
    await client.query('begin');
    const settings = numbered(
      transactionSettingsStatement(searchSql.SEARCH_SETTINGS, searchSql.RETRIEVAL_SETTINGS),
    );
    await client.query(settings.text, settings.values);
    await retrieval.retrieveNewest(runRows, searchReach, concepts, Number(planned.chunks), {});
    const retrieves = statements.filter((s) => s.sql.includes('found as ('));
    const retrieve = numbered(retrieves[retrieves.length - 1]);
    const { rows } = await client.query(`explain (analyze, buffers) ${retrieve.text}`, retrieve.values);
    await client.query('rollback');
    // the typo class: no passage matches (nothing retrieved), so the trigram pass is what runs:
    // its similar-words statement, in a transaction with its threshold, as the pipeline runs it
    let trigram = null;
    if (withTrigram) {
      await client.query('begin');
      const threshold = numbered(transactionSettingsStatement(searchSql.TRIGRAM_SETTINGS));
      await client.query(threshold.text, threshold.values);
      const statement = numbered(
        searchSql.similarWordsStatement(ctx.organizationId, queryPlan.trigramWords.map(foldWord)),
      );
      const explained = await client.query(`explain (analyze, buffers) ${statement.text}`, statement.values);
      await client.query('rollback');
      trigram = explained.rows.map((row) => row['QUERY PLAN']).join('\n');
    }
    const [{ matches }] = (
      await client.query(
        `select count(*)::int as matches from search_chunk c
          where c.organization_id = $1 and c.tsv @@ $2::tsquery`,
        [ctx.organizationId, concepts.map((c) => c.tsquery).join(' | ') || "''"],
      )
    ).rows;
    return {
      query,
      websearch: concepts.map((c) => c.tsquery).join(' | '),
      configs: analyzed.configs,
      matches,
      retrieveStatements: retrieves.length,
      estimates: concepts.map((c) => c.estimate),
      plan: rows.map((row) => row['QUERY PLAN']).join('\n'),
      trigram,
    };
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------- the search workloads

const CLASS_TITLES = {
  rare: 'a planted topic in its own language (a subject and a village; every second one typed without accents)',
  common: 'ordinary template words (thousands of matching passages)',
  multilingual: 'a planted topic asked in another language than it was written in (the thesaurus)',
  typo: 'a planted estate name, misspelled (the trigram pass)',
};

const searchWorkload = (cls) => ({
  title: `\`POST /v1/search\`, ${cls} queries: ${CLASS_TITLES[cls]}, ${CONNECTIONS} connections`,
  row: (ctx) =>
    `\`POST /v1/search\` ${cls} (${n(ctx.search?.queries[cls]?.length)} queries in rotation, e.g. "${ctx.search?.queries[cls]?.[0]?.query}")`,
  section: 'search',
  class: cls,
  connections: CONNECTIONS,
  open: false,
  // a 429 (the shared limit not raised) did no search: rates and latencies per 200, codes counted
  rateOn2xx: true,
  errorCodes: true,
  target: { p99Ms: 300, ratio: 0.85 },
  prepare: seedSearch,
  // the class's queries in a seeded order, the same sequence on every leg
  request: (ctx) => {
    const random = seededRandom(1800 + cls.length);
    const queries = ctx.search.queries[cls].map((q) => searchBody(q.query));
    return () => ({
      method: 'POST',
      path: '/v1/search',
      body: queries[Math.floor(random() * queries.length)],
    });
  },
  check: async (legs, ctx, headers) => {
    const texts = [];
    for (const leg of legs) {
      const answers = [];
      for (const q of ctx.search.queries[cls].slice(0, 3))
        answers.push(await searchOn(leg.server.base, headers, q.query));
      texts.push(answers.map(comparable).join(' | '));
    }
    return texts;
  },
  after: async ({ ctx, legs }) => {
    const out = {};
    if (cls !== 'common') {
      const headers = { authorization: `Bearer ${ctx.search.adminKey}` };
      out.recall = await recall(cls, legs, ctx, headers);
    }
    if (cls !== 'multilingual') {
      const explained = await retrievePlan(ctx, ctx.search.queries[cls][0].query, cls === 'typo');
      log(
        `${cls}: retrieve of "${explained.query}" (${explained.websearch}; ${explained.configs.join(', ')}; ` +
          `${n(explained.matches)} matching passages):\n${explained.plan}`,
      );
      if (explained.trigram) log(`${cls}: the trigram pass:\n${explained.trigram}`);
      out.explained = explained;
    }
    return out;
  },
});

// ---------------------------------------------------------------- indexing on writes

/** A note's text as agents write them (a few sentences, as the generated notes). */
const NOTE_TEXTS = [
  'Called the client back: they want a second viewing of the villa in Estepona on Saturday, budget confirmed at €850,000.',
  'Llamé al cliente: quiere ver otra vez el ático de Marbella, la hipoteca está preaprobada y la pareja ya está convencida.',
  'The owner accepts €420,000 if the notary appointment is before the end of the month; client to confirm by Friday.',
];

/**
 * `crm-search-note`: NOTE_REQUESTS notes per leg on leads drawn from a seeded generator, closed
 * loop at 2 connections: the API (its note creation with the indexer in the transaction), the
 * baseline's same route with the indexer's statements (`?index=1`) and without (`?index=0`).
 * Each leg's notes are deleted (with their passages) afterwards, so the kept data stays as built.
 */
async function runNotes({ sides, ctx, meter, headers, config }) {
  const legs = [
    { name: 'API (indexer in the transaction)', server: sides.api, query: '' },
    { name: 'baseline with the indexer’s statements', server: sides.baseline, query: '?index=1' },
    { name: 'baseline without them', server: sides.baseline, query: '?index=0' },
  ];
  const result = { name: 'crm-search-note', legs: {}, pairs: [], warmup: {} };
  const notesBefore = Number(
    (
      await sql(ctx.databaseUrl, 'select count(*) as n from notes where organization_id = $1', [
        ctx.organizationId,
      ])
    )[0].n,
  );
  const next = (leg) => {
    const random = seededRandom(1818);
    let i = 0;
    return () => {
      i += 1;
      const leadId = ctx.leadIds[Math.floor(random() * ctx.leadIds.length)];
      return {
        method: 'POST',
        path: `/v1/leads/${leadId}/notes${leg.query}`,
        body: JSON.stringify({ content: `${NOTE_TEXTS[i % NOTE_TEXTS.length]} (bench note ${i})` }),
      };
    };
  };
  // the answer of each side to one note (ids and times blanked), and whether it is searchable at once
  const checks = [];
  for (const leg of legs) {
    const route = next(leg)();
    const res = await getJson(
      leg.server.base,
      route.path,
      { ...headers, 'content-type': 'application/json' },
      'POST',
      route.body,
    );
    const chunk = res.body?.id
      ? (
          await sql(
            ctx.databaseUrl,
            `select count(*)::int as n from search_chunk where source_kind = 'note' and source_id = $1`,
            [res.body.id],
          )
        )[0].n
      : null;
    checks.push({
      leg: leg.name,
      status: res.status,
      indexed: chunk,
      keys: Object.keys(res.body ?? {})
        .sort()
        .join(','),
    });
  }
  log(`crm-search-note: one note per leg: ${JSON.stringify(checks)}`);
  result.checks = checks;
  await interleavedLegs({
    label: 'crm-search-note',
    unit: 'notes',
    legs,
    next,
    headers,
    connections: CONNECTIONS,
    warmup: NOTE_WARMUP,
    requests: NOTE_REQUESTS,
    rounds: config.rounds,
    meter,
    result,
  });
  const [api, withIndex, without] = legs.map((leg) => result.legs[leg.name]);
  result.indexCost = {
    rateRatio: round(withIndex.rps / without.rps, 2),
    p50AddedMs: round(withIndex.p50 - without.p50, 2),
    dbCpuAddedMs: round(withIndex.dbCpuMsPerRequest - without.dbCpuMsPerRequest, 3),
    serverCpuAddedMs: round(withIndex.serverCpuMsPerRequest - without.serverCpuMsPerRequest, 3),
    apiOverBaselineWithIndex: round(api.rps / withIndex.rps, 2),
  };
  log(`crm-search-note: indexing costs ${JSON.stringify(result.indexCost)}`);
  // the kept data stays as built: the notes written here and their passages go
  const removed = await sql(
    ctx.databaseUrl,
    `with gone as (delete from notes where organization_id = $1 and content like '%(bench note %' returning id)
     , chunks as (delete from search_chunk c using gone where c.source_kind = 'note' and c.source_id = gone.id returning 1)
     select (select count(*) from gone)::int as notes, (select count(*) from chunks)::int as chunks`,
    [ctx.organizationId],
  );
  result.removed = removed[0];
  result.notesBefore = notesBefore;
  log(`crm-search-note: removed the bench's ${removed[0].notes} notes and ${removed[0].chunks} passages`);
  return result;
}

// ---------------------------------------------------------------- the workloads and the report

const SEARCH_WORKLOADS = {
  'crm-search-rare': searchWorkload('rare'),
  'crm-search-common': searchWorkload('common'),
  'crm-search-multilingual': searchWorkload('multilingual'),
  'crm-search-typo': searchWorkload('typo'),
  'crm-search-note': {
    title: `\`POST /v1/leads/{id}/notes\`: ${n(NOTE_REQUESTS)} notes per leg, with and without the indexer, ${CONNECTIONS} connections`,
    row: '`POST /v1/leads/{id}/notes`',
    section: 'search',
    prepare: seedSearch,
    run: runNotes,
  },
};

/** Issue 18's tables: the searches against the baseline with their recall; the data; indexing on writes. */
function searchMarkdown(report, workloads, sides, ctx, config) {
  const lines = [];
  const s = ctx.search ?? {};
  const d = s.data ?? {};
  lines.push(
    `Data: ${n(d.events)} events (${n(d.plantedEvents)} planted, 200 topics) in ${n(ctx.leadIds?.length)} leads, ` +
      `${n(d.chunks)} passages; built in ${d.seconds} s (${JSON.stringify(d.timings ?? {})}) on ${d.builtAt}; ` +
      `limit raised by ${s.limitBy}. ${config.rounds} rounds × ${config.seconds} s per leg, interleaved A B B A, ` +
      `after a ${config.warmupSeconds} s warm-up; ${CONNECTIONS} connections; closed loop; medians.`,
  );
  lines.push('');
  lines.push('| table or index | size |');
  lines.push('|---|---|');
  for (const row of s.sizesNow ?? [])
    lines.push(`| ${row.index ? 'index ' : ''}\`${row.name}\` | ${row.size} |`);
  const searches = workloads.filter((w) => w.class);
  if (searches.length) {
    lines.push('');
    lines.push(
      '| workload | API 200/s | baseline req/s | ratio (range over rounds) | API p50 / p99 of the 200s | baseline p50 / p99 | ' +
        'CPU ms/req API / baseline | PostgreSQL CPU ms/req API / baseline | API answers other than 200 | ' +
        'recall@10 API / baseline (complete) | same answers | targets |',
    );
    lines.push('|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const w of searches) {
      const r = report.workloads[w.name];
      const a = r.legs[sides.api.label];
      const b = r.legs[sides.baseline.label];
      const pair = r.pairs.find((p) => p.label === sides.api.label);
      const rc = r.recall;
      const recallCell = rc
        ? `${rc.byLeg[sides.api.label]} / ${rc.byLeg[sides.baseline.label]} (${rc.perfect} of ${rc.topics}; ` +
          `${rc.coveredRecall} over the ${rc.covered} the plan maps to the planted words)`
        : '–';
      const others = Object.entries(a.statuses)
        .filter(([code]) => code !== '200')
        .map(([code, count]) => `${n(count)} × ${code}`);
      const verdicts = [
        `p99 ≤ 300 ms: ${a.p99 <= 300 && !a.non2xx ? 'met' : '**missed**'}`,
        `ratio ≥ 0.85: ${pair.ratio >= 0.85 ? 'met' : '**missed**'}`,
        ...(rc ? [`recall ≥ 0.9: ${rc.byLeg[sides.api.label] >= 0.9 ? 'met' : '**missed**'}`] : []),
      ];
      lines.push(
        `| ${w.row(ctx)} | ${n(a.okRps)} | ${n(b.okRps)} | **${pair.ratio}** (${pair.range[0]}–${pair.range[1]}) | ` +
          `${ms(a.okP50)} / ${ms(a.okP99)} ms (all answers ${ms(a.p50)} / ${ms(a.p99)}) | ${ms(b.okP50)} / ${ms(b.okP99)} ms | ${a.serverCpuMsPerOk} / ${b.serverCpuMsPerOk} | ` +
          `${a.dbCpuMsPerOk} / ${b.dbCpuMsPerOk} | ${others.join(', ') || 'none'} | ${recallCell} | ${r.sameAnswer ? 'yes' : '**no**'}` +
          `${rc ? ` (${rc.alike} of ${rc.topics} recall queries)` : ''} | ${verdicts.join('; ')} |`,
      );
    }
  }
  for (const w of searches) {
    const rc = report.workloads[w.name].recall;
    if (!rc?.alone) continue;
    const cell = (name) => {
      const x = rc.alone[name];
      return x ? `${x.p50} / ${x.p99} / ${x.max} ms ${JSON.stringify(x.statuses)}` : '–';
    };
    lines.push('');
    lines.push(
      `${w.name}: the ${rc.topics} recall queries one at a time (one connection), p50 / p99 / max: ` +
        `API ${cell(sides.api.label)}, baseline ${cell(sides.baseline.label)}.`,
    );
  }
  const notes = report.workloads['crm-search-note'];
  if (notes) {
    lines.push('');
    lines.push('| note creation | notes/s | p50 / p99 | CPU ms per note server / PostgreSQL | answers |');
    lines.push('|---|---|---|---|---|');
    for (const [name, leg] of Object.entries(notes.legs)) {
      lines.push(
        `| ${name} | ${n(leg.rps)} | ${ms(leg.p50)} / ${ms(leg.p99)} ms | ${leg.serverCpuMsPerRequest} / ${leg.dbCpuMsPerRequest} | ${JSON.stringify(leg.statuses)} |`,
      );
    }
    lines.push('');
    lines.push(
      `Indexing cost (baseline with ÷ without the indexer's statements): ${JSON.stringify(notes.indexCost)}.`,
    );
  }
  for (const w of searches) {
    const e = report.workloads[w.name].explained;
    if (!e) continue;
    lines.push('');
    lines.push(
      `EXPLAIN (ANALYZE, BUFFERS) of the retrieve statement for "${e.query}" (${w.class}; websearch text \`${e.websearch}\` ` +
        `under ${e.configs.join(', ')}; ${n(e.matches)} matching passages; after the runs, parameters bound, so a custom plan):`,
    );
    lines.push('');
    lines.push('```');
    lines.push(e.plan);
    lines.push('```');
    if (e.trigram) {
      lines.push('');
      lines.push(
        `The trigram pass for "${e.query}" (EXPLAIN (ANALYZE, BUFFERS), in its transaction with its threshold):`,
      );
      lines.push('');
      lines.push('```');
      lines.push(e.trigram);
      lines.push('```');
    }
  }
  return lines;
}

module.exports = { SEARCH_WORKLOADS, searchMarkdown, EVENTS };
