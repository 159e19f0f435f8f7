'use strict';
// The benchmark harness (issue 9): every workload against the framework-free baseline, on one
// throwaway database seeded once with a 100,000-lead agency. Run through npm, which builds first:
//
//   npm run bench                                   # every workload
//   npm run bench -- me lead                        # some (or BENCH_WORKLOADS=me,lead)
//   BENCH_COMPARE=../other-checkout npm run bench   # also another built checkout, interleaved
//
// Per workload: a warm-up of every leg, then BENCH_ROUNDS closed-loop rounds, the legs in
// alternating order (A B, B A, … = A B B A A B B A), medians per leg, the ratio of the medians and
// the range of the per-round ratios; then an open-loop run of every leg at 70 % of the reference
// leg's (the baseline's) median req/s, latency from each request's scheduled send time.
// Progress goes to stderr; the report (markdown, ready to paste) to stdout; every number to a
// JSON file (path printed). See bench/README.md.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {
  ROOT,
  log,
  createBenchDatabase,
  sql,
  runOps,
  startApi,
  startBaseline,
  cpuMeter,
  idleMachineLoad,
  closedLoop,
  openLoop,
  round,
  rate,
  median,
  getJson,
  canonical,
  summarizeProfile,
  machine,
} = require('./lib');
const { DEFAULT_WORKLOADS, prepareContext, selectWorkloads } = require('./workloads');
const { documentsMarkdown } = require('./documents');
const { listingsMarkdown } = require('./listings');
const { networkMarkdown } = require('./network');
const { searchMarkdown } = require('./search');
const { eventsMarkdown } = require('./events');
const { searchDatabase } = require('./search-data');

const env = process.env;
const config = {
  workloads: process.argv.slice(2).length
    ? process.argv.slice(2)
    : (env.BENCH_WORKLOADS?.split(',')
        .map((s) => s.trim())
        .filter(Boolean) ?? DEFAULT_WORKLOADS),
  leads: Number(env.BENCH_LEADS ?? 100_000),
  connections: Number(env.BENCH_CONNECTIONS ?? 32),
  rounds: Number(env.BENCH_ROUNDS ?? 4),
  seconds: Number(env.BENCH_SECONDS ?? 5),
  warmupSeconds: Number(env.BENCH_WARMUP ?? 3),
  open: env.BENCH_OPEN !== '0',
  openSeconds: Number(env.BENCH_OPEN_SECONDS ?? env.BENCH_SECONDS ?? 10),
  openShare: Number(env.BENCH_OPEN_SHARE ?? 0.7),
  compare: env.BENCH_COMPARE ? path.resolve(env.BENCH_COMPARE) : null,
  profile: env.BENCH_PROFILE === '1',
};

// ---------------------------------------------------------------- one workload

/** The legs of a workload: which server, which paths, and which leg is the yardstick. */
function legsOf(workload, sides, ctx) {
  const apis = [sides.api, sides.compare].filter(Boolean);
  const defs = workload.legs
    ? apis.flatMap((server) => workload.legs.map((leg) => ({ ...leg, server })))
    : [
        ...apis.map((server) => ({ server, route: 'API' })),
        { server: sides.baseline, route: 'baseline', reference: true },
      ];
  return defs.map((def) => {
    const name = workload.legs ? `${def.server.label} ${def.route}` : def.server.label;
    return {
      name,
      server: def.server,
      reference: Boolean(def.reference),
      // a path to GET, or (`request`) a whole request; the leg's name keeps its writes apart
      next: () => (def.path ?? workload.path ?? workload.request)(ctx, name),
      rounds: [],
      open: null,
    };
  });
}

/** Pairs whose ratio is reported: each API leg over its yardstick, and after over before. */
function pairsOf(workload, legs, sides) {
  const apis = [sides.api, sides.compare].filter(Boolean);
  const pairs = [];
  for (const server of apis) {
    const mine = legs.filter((leg) => leg.server === server);
    const reference = workload.legs ? mine.find((leg) => leg.reference) : legs.find((leg) => leg.reference);
    pairs.push({ label: server.label, a: mine.find((leg) => !leg.reference), b: reference });
  }
  if (sides.compare) {
    const after = legs.find((leg) => leg.server === sides.api && !leg.reference);
    const before = legs.find((leg) => leg.server === sides.compare && !leg.reference);
    pairs.push({ label: 'after ÷ before', a: after, b: before, compare: true });
  }
  return pairs;
}

async function runWorkload(workload, sides, ctx, meter, headers) {
  log(`== ${workload.name}: ${workload.title}`);
  const legs = legsOf(workload, sides, ctx);
  const result = { name: workload.name, title: workload.title, legs: {}, pairs: [], sameAnswer: null };

  // the baseline must do the API's work: compare one answer of each (or the workload's own checks)
  if (workload.check) {
    const texts = await workload.check(legs, ctx, headers);
    result.sameAnswer = texts.every((t) => t === texts[0]);
    if (!result.sameAnswer) {
      log('WARNING: the answers differ');
      for (const [i, t] of texts.entries()) log(`  ${legs[i].name}: ${t.slice(0, 600)}`);
    } else log(`same answers from every side: ${texts[0]}`);
  } else if (!workload.legs) {
    const route = legs[0].next()();
    const answers = await Promise.all(legs.map((leg) => getJson(leg.server.base, route, headers)));
    const texts = answers.map((a) => `${a.status} ${canonical(a.body)}`);
    result.sameAnswer = texts.every((t) => t === texts[0]);
    const bytes = answers.map((a) => JSON.stringify(a.body).length);
    if (answers.some((a) => a.status !== 200)) throw new Error(`${route}: ${answers.map((a) => a.status)}`);
    if (!result.sameAnswer) {
      log(`WARNING ${route}: the answers differ`);
      for (const [i, t] of texts.entries()) log(`  ${legs[i].name}: ${t.slice(0, 600)}`);
    } else log(`${route}: same answer from every side (${bytes[0]} bytes)`);
  }

  // a workload with `requests` sends that many per leg, split over the rounds (and
  // `warmupRequests` before), instead of running for seconds
  const perRound = workload.requests ? Math.ceil(workload.requests / config.rounds) : undefined;
  // a workload may fix its own connections and its seconds per leg (split over the rounds)
  const connections = workload.connections ?? config.connections;
  const seconds = workload.secondsPerLeg ? workload.secondsPerLeg / config.rounds : config.seconds;
  result.warmup = {};
  for (const leg of legs) {
    const warm = await closedLoop({
      base: leg.server.base,
      next: leg.next(),
      headers,
      connections,
      seconds: config.warmupSeconds,
      amount: workload.warmupRequests,
      errorCodes: Boolean(workload.errorCodes),
    });
    // not measured, but a failed warm-up request is worth knowing (a write it did not make)
    result.warmup[leg.name] = {
      requests: warm.requests,
      statuses: warm.statuses,
      errorCodes: warm.errorCodes,
      errors: warm.errors,
    };
    if (warm.non2xx || warm.errors) {
      log(
        `warm-up ${leg.name}: ${warm.non2xx} non-2xx ${JSON.stringify(warm.errorCodes ?? warm.statuses)}, ${warm.errors} errors`,
      );
    }
  }

  const profiled = config.profile
    ? [sides.api, sides.compare].filter((s) => s && legs.some((l) => l.server === s))
    : [];
  for (const server of profiled) await server.ask({ profile: 'start' });

  for (let round = 0; round < config.rounds; round++) {
    const order = round % 2 === 0 ? legs : [...legs].reverse();
    for (const leg of order) {
      const run = await meter.measure(leg.server.pid, () =>
        closedLoop({
          base: leg.server.base,
          next: leg.next(),
          headers,
          connections,
          seconds,
          amount: perRound,
          errorCodes: Boolean(workload.errorCodes),
        }),
      );
      leg.rounds[round] = run;
      const bad =
        run.non2xx || run.errors
          ? ` (${run.non2xx} non-2xx: ${JSON.stringify(run.errorCodes ?? run.statuses)}, ${run.errors} errors)`
          : '';
      const ok = run.non2xx ? `; 2xx: ${run.okRps}/s, p50 ${run.okP50} p99 ${run.okP99} ms` : '';
      log(
        `round ${round + 1} ${leg.name}: ${run.rps} req/s, p50 ${run.p50} p99 ${run.p99} ms${ok}, others ${run.cores.others} cores${bad}`,
      );
    }
  }

  result.profiles = {};
  for (const server of profiled) {
    const { profiled: file } = await server.ask({
      profile: 'stop',
      label: `${workload.name}-${server.label}`,
    });
    result.profiles[server.label] = { file, ...summarizeProfile(file) };
  }

  for (const leg of legs) {
    const pick = (f) => median(leg.rounds.map(f));
    result.legs[leg.name] = {
      rps: rate(pick((r) => r.rps)),
      p50: pick((r) => r.p50),
      p99: pick((r) => r.p99),
      okRps: rate(pick((r) => r.okRps)),
      okP50: pick((r) => r.okP50),
      okP99: pick((r) => r.okP99),
      serverCpuMsPerRequest: round(
        pick((r) => r.serverCpuMsPerRequest),
        3,
      ),
      dbCpuMsPerRequest: round(
        pick((r) => r.dbCpuMsPerRequest),
        3,
      ),
      serverCpuMsPerOk: round(
        pick((r) => r.serverCpuMsPerOk ?? 0),
        3,
      ),
      dbCpuMsPerOk: round(
        pick((r) => r.dbCpuMsPerOk ?? 0),
        3,
      ),
      requests: leg.rounds.reduce((n, r) => n + r.requests, 0),
      statuses: leg.rounds.reduce((all, r) => {
        for (const [code, count] of Object.entries(r.statuses ?? {})) all[code] = (all[code] ?? 0) + count;
        return all;
      }, {}),
      othersCores: {
        median: round(
          pick((r) => r.cores.others),
          2,
        ),
        max: Math.max(...leg.rounds.map((r) => r.cores.others)),
      },
      non2xx: leg.rounds.reduce((n, r) => n + r.non2xx, 0),
      errors: leg.rounds.reduce((n, r) => n + r.errors, 0),
      perRound: leg.rounds,
    };
  }

  for (const pair of pairsOf(workload, legs, sides)) {
    const rate = workload.rateOn2xx ? 'okRps' : 'rps';
    const perRound = pair.a.rounds.map((r, i) => r[rate] / pair.b.rounds[i][rate]);
    result.pairs.push({
      label: pair.label,
      a: pair.a.name,
      b: pair.b.name,
      compare: Boolean(pair.compare),
      ratio: round(result.legs[pair.a.name][rate] / result.legs[pair.b.name][rate], 2),
      range: [round(Math.min(...perRound), 2), round(Math.max(...perRound), 2)],
      perRound: perRound.map((r) => round(r, 3)),
    });
  }

  if (workload.after)
    Object.assign(result, await workload.after({ databaseUrl: ctx.databaseUrl, legs, ctx }));

  if (config.open && workload.open !== false) {
    const reference = legs.find((leg) => leg.reference);
    const rate = config.openShare * result.legs[reference.name].rps;
    result.openRate = Math.round(rate);
    for (const leg of legs) {
      const run = await meter.measure(leg.server.pid, () =>
        openLoop({
          base: leg.server.base,
          next: leg.next(),
          headers,
          connections: config.connections,
          seconds: config.openSeconds,
          rate,
        }),
      );
      result.legs[leg.name].open = run;
      log(
        `open loop ${leg.name} at ${run.rate} req/s: p50 ${run.p50} p99 ${run.p99} max ${run.max} ms, ` +
          `answered ${run.answeredPerSecond}/s, ${run.non2xx} non-2xx, ${run.errors} errors, ${run.unanswered} unanswered, ` +
          `send lag p99 ${run.sendLag.p99} ms, others ${run.cores.others} cores`,
      );
    }
  }
  return result;
}

// ---------------------------------------------------------------- targets and the report

function verdicts(workload, result, sides) {
  if (!workload.target) return [];
  const api = result.legs[sides.api.label];
  const pair = result.pairs.find((p) => p.label === sides.api.label);
  const out = [];
  const t = workload.target;
  if (t.ratio !== undefined) out.push({ text: `ratio ≥ ${t.ratio}`, met: pair.ratio >= t.ratio });
  if (t.p99Ms !== undefined) out.push({ text: `p99 ≤ ${t.p99Ms} ms`, met: api.p99 <= t.p99Ms });
  if (t.apiRps !== undefined)
    out.push({ text: `≥ ${t.apiRps.toLocaleString('en')} req/s`, met: api.rps >= t.apiRps });
  if (t.openP99Ms !== undefined && api.open) {
    out.push({
      text: `open-loop p99 ≤ ${t.openP99Ms} ms`,
      met: api.open.p99 !== null && api.open.p99 <= t.openP99Ms,
    });
  }
  return out;
}

const n = (value) => (value === null || value === undefined ? '–' : Number(value).toLocaleString('en'));
const ms = (value) =>
  value === null || value === undefined ? '–' : String(round(value, value < 10 ? 1 : 0));

/** An open-loop result in a cell: p50 / p99 / max, or how far an overloaded server fell behind. */
function openCell(open, p99Only = false) {
  if (!open) return '–';
  const failed = open.non2xx + open.errors;
  const tail = failed ? ` (${n(failed)} failed)` : '';
  if (open.overloaded) {
    return `overloaded: answered ${n(open.answeredPerSecond)}/s, ${n(open.unanswered)} of ${n(open.requests)} unanswered${tail}`;
  }
  return p99Only
    ? `${ms(open.p99)} ms${tail}`
    : `${ms(open.p50)} / ${ms(open.p99)} / ${ms(open.max)} ms${tail}`;
}

/**
 * Issue 12's table: the ingest workloads (writes; closed loop only; a count of requests per leg).
 * Rates, latencies and CPU are per 2xx answer (a call stored): the API sheds requests with 503 at
 * once while its pool is saturated, and those did no work.
 */
function ingestMarkdown(report, workloads, sides) {
  const lines = [];
  lines.push(
    `${config.rounds} rounds per leg, interleaved A B B A, after ${n(workloads[0].warmupRequests)} warm-up PUTs per leg; ` +
      `medians; ${config.connections} connections; closed loop only; rates, latencies and CPU per 2xx answer.`,
  );
  lines.push('');
  lines.push(
    '| workload | PUTs per leg | API 2xx/s | baseline 2xx/s | ratio (range over rounds) | API p50 / p99 | baseline p50 / p99 | ' +
      'API answers other than 2xx | CPU ms per call API / baseline | PostgreSQL CPU ms per call API / baseline | ' +
      "others' cores (median, max) | calls created API / baseline (warm-up included) |",
  );
  lines.push('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const w of workloads) {
    const r = report.workloads[w.name];
    const a = r.legs[sides.api.label];
    const b = r.legs[sides.baseline.label];
    const pair = r.pairs.find((p) => p.label === sides.api.label);
    const created = r.callsCreated ?? {};
    const others = Object.entries(a.statuses)
      .filter(([code]) => !code.startsWith('2'))
      .map(([code, count]) => `${n(count)} × ${code} (${round((100 * count) / a.requests, 1)} %)`);
    lines.push(
      `| ${w.row} | ${n(w.requests)} | ${n(a.okRps)} | ${n(b.okRps)} | **${pair.ratio}** (${pair.range[0]}–${pair.range[1]}) | ` +
        `${ms(a.okP50)} / ${ms(a.okP99)} ms | ${ms(b.okP50)} / ${ms(b.okP99)} ms | ${others.join(', ') || 'none'} | ` +
        `${a.serverCpuMsPerOk} / ${b.serverCpuMsPerOk} | ${a.dbCpuMsPerOk} / ${b.dbCpuMsPerOk} | ` +
        `${a.othersCores.median}, ${Math.max(a.othersCores.max, b.othersCores.max)} | ` +
        `${n(created[sides.api.label])} / ${n(created[sides.baseline.label])} |`,
    );
  }
  return lines;
}

/**
 * Issue 14's table: lead intake routed round robin (writes; closed loop only; a count of requests
 * per leg). Assignments per second are 2xx answers per second (each a new lead routed to one of
 * the pool); p99 per 2xx; fairness from the decision log of each leg's own route.
 */
function routingMarkdown(report, workloads, sides) {
  const lines = [];
  lines.push(
    `${config.rounds} rounds per leg, interleaved A B B A, after ${n(workloads[0].warmupRequests)} warm-up intakes per leg; ` +
      `medians; ${config.connections} connections; closed loop only; rates and latencies per 2xx answer; ` +
      'fairness: decisions per person on the leg’s route (warm-up and checks included), max − min ≤ 1.',
  );
  lines.push('');
  lines.push(
    '| workload | intakes per leg | leg | assignments/s (2xx/s) | p50 / p99 (2xx) | answers other than 2xx | ' +
      'CPU ms per intake server / PostgreSQL | leads (unassigned) | decisions per person min–max | max − min | ratio to the baseline (range) |',
  );
  lines.push('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const w of workloads) {
    const r = report.workloads[w.name];
    for (const [name, leg] of Object.entries(r.legs)) {
      const f = r.fairness?.[name] ?? {};
      const pair = r.pairs.find((p) => p.a === name);
      const others = Object.entries(leg.statuses)
        .filter(([code]) => !code.startsWith('2'))
        .map(([code, count]) => `${n(count)} × ${code} (${round((100 * count) / leg.requests, 1)} %)`);
      lines.push(
        `| ${w.row} | ${n(w.requests)} | ${name} | ${n(leg.okRps)} | ${ms(leg.okP50)} / ${ms(leg.okP99)} ms | ` +
          `${others.join(', ') || 'none'}${leg.errors ? `, ${n(leg.errors)} errors` : ''} | ` +
          `${leg.serverCpuMsPerOk} / ${leg.dbCpuMsPerOk} | ${n(f.leads)} (${n(f.unassigned)}) | ${f.min}–${f.max} | ` +
          `**${f.spread}** ${f.fair ? '(fair)' : '(**not fair**)'} | ${pair ? `${pair.ratio} (${pair.range[0]}–${pair.range[1]})` : '–'} |`,
      );
    }
    if (r.rowsAlike !== undefined) {
      lines.push('');
      lines.push(
        r.rowsAlike
          ? 'The rows each side wrote for its check lead (lead, history, inquiries, decision) are alike.'
          : '**The rows each side wrote for its check lead differ** (see the log).',
      );
    }
  }
  return lines;
}

function markdown(report, allWorkloads, sides, ctx) {
  const m = report.machine;
  const lines = [];
  const rowName = (w) => (typeof w.row === 'function' ? w.row(ctx) : w.row);
  const workloads = allWorkloads.filter((w) => !w.section);
  const ingest = allWorkloads.filter((w) => w.section === 'ingest');
  const routing = allWorkloads.filter((w) => w.section === 'routing');
  const documents = allWorkloads.filter((w) => w.section === 'documents');
  const listings = allWorkloads.filter((w) => w.section === 'listings');
  const network = allWorkloads.filter((w) => w.section === 'network');
  const search = allWorkloads.filter((w) => w.section === 'search');
  const events = allWorkloads.filter((w) => w.section === 'events');
  lines.push(
    `### Measured ${m.date} on this machine (build ${m.build}${config.compare ? `, before = ${report.compareBuild}` : ''})`,
  );
  lines.push('');
  lines.push(
    `${m.cores} cores (${m.cpu}), ${m.memoryGiB} GiB, ${m.postgres}, Node ${m.node}; ` +
      `${config.leads.toLocaleString('en')} leads (seeded in ${report.seedSeconds} s); ${config.connections} connections; ` +
      `${config.rounds} rounds × ${config.seconds} s per leg, interleaved A B B A, after a ${config.warmupSeconds} s warm-up; ` +
      `medians; open loop ${config.openSeconds} s at ${Math.round(config.openShare * 100)} % of the baseline's median req/s.`,
  );
  lines.push(
    `Noise: before the run the other tenants kept ${report.idleCores} of ${m.cores} cores busy; during the runs ` +
      `${report.noise.median} (median over runs, max ${report.noise.max}). ` +
      `Rounds whose ratios spread widely were measured on a busy machine. ` +
      `"Issue 9": the table of the issue (2026-11-2x, this machine, the earlier harness).`,
  );
  if (workloads.length) {
    lines.push('');
    lines.push(
      '| workload | issue 9: API req/s | baseline | ratio | API p99 | now: API req/s | baseline | ratio (range over rounds) | API p99 | ' +
        'open loop: req/s | API p50 / p99 / max | baseline p99 | target | |',
    );
    lines.push('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const w of workloads) {
      const r = report.workloads[w.name];
      const [a, b] = w.legs
        ? [r.legs[`${sides.api.label} /v1/me`], r.legs[`${sides.api.label} /health`]]
        : [r.legs[sides.api.label], r.legs[sides.baseline.label]];
      const pair = r.pairs.find((p) => p.label === sides.api.label);
      const v = verdicts(w, r, sides);
      const cells = [
        rowName(w),
        ...(w.before
          ? [n(w.before.apiRps), n(w.before.baselineRps), w.before.ratio, `${n(w.before.apiP99)} ms`]
          : ['–', '–', '–', '–']),
        n(a.rps),
        `${n(b.rps)}${w.legs ? ' (`/health`)' : ''}`,
        `**${pair.ratio}** (${pair.range[0]}–${pair.range[1]})`,
        `${ms(a.p99)} ms`,
        n(r.openRate),
        openCell(a.open),
        openCell(b.open, true),
        v.map((x) => x.text).join('; ') || '–',
        v.map((x) => (x.met ? 'met' : '**missed**')).join('; '),
      ];
      lines.push(`| ${cells.join(' | ')} |`);
    }
    lines.push('');
    lines.push(
      'Cost per request (medians over rounds; CPU from /proc, so less sensitive to the other tenants than req/s):',
    );
    lines.push('');
    lines.push(
      "| workload | API CPU ms/req | baseline CPU ms/req | PostgreSQL CPU ms/req (API / baseline) | API p50 | baseline p50 | others' cores (median, max) |",
    );
    lines.push('|---|---|---|---|---|---|---|');
    for (const w of workloads) {
      const r = report.workloads[w.name];
      const [a, b] = w.legs
        ? [r.legs[`${sides.api.label} /v1/me`], r.legs[`${sides.api.label} /health`]]
        : [r.legs[sides.api.label], r.legs[sides.baseline.label]];
      lines.push(
        `| ${rowName(w)} | ${a.serverCpuMsPerRequest} | ${b.serverCpuMsPerRequest} | ${a.dbCpuMsPerRequest} / ${b.dbCpuMsPerRequest} | ${ms(a.p50)} ms | ${ms(b.p50)} ms | ${a.othersCores.median}, ${Math.max(a.othersCores.max, b.othersCores.max)} |`,
      );
    }
  }
  if (ingest.length) {
    lines.push('');
    lines.push(...ingestMarkdown(report, ingest, sides));
  }
  if (routing.length) {
    lines.push('');
    lines.push(...routingMarkdown(report, routing, sides));
  }
  if (documents.length) {
    lines.push('');
    lines.push(...documentsMarkdown(report, documents, sides, ctx, config));
  }
  if (listings.length) {
    lines.push('');
    lines.push(...listingsMarkdown(report, listings, sides, ctx, config));
  }
  if (network.length) {
    lines.push('');
    lines.push(...networkMarkdown(report, network, sides, ctx, config));
  }
  if (search.length) {
    lines.push('');
    lines.push(...searchMarkdown(report, search, sides, ctx, config));
  }
  if (events.length) {
    lines.push('');
    lines.push(...eventsMarkdown(report, events, sides, ctx, config));
  }
  if (config.compare) {
    lines.push('');
    lines.push(
      `Two builds, interleaved on the same database: after = ${m.build}, before = ${report.compareBuild}.`,
    );
    lines.push('');
    lines.push(
      '| workload | after req/s | before req/s | after ÷ before (range) | after CPU ms/req | before CPU ms/req | after ÷ baseline | before ÷ baseline |',
    );
    lines.push('|---|---|---|---|---|---|---|---|');
    // (a workload of the API alone, `documents-big`, has no pairs)
    for (const w of allWorkloads.filter((x) => report.workloads[x.name].pairs.some((p) => p.compare))) {
      const r = report.workloads[w.name];
      const cmp = r.pairs.find((p) => p.compare);
      const afterPair = r.pairs.find((p) => p.label === sides.api.label);
      const beforePair = r.pairs.find((p) => p.label === sides.compare.label);
      const after = r.legs[cmp.a];
      const before = r.legs[cmp.b];
      lines.push(
        `| ${rowName(w)} | ${n(after.rps)} | ${n(before.rps)} | **${cmp.ratio}** (${cmp.range[0]}–${cmp.range[1]}) | ${after.serverCpuMsPerRequest} | ${before.serverCpuMsPerRequest} | ${afterPair.ratio} | ${beforePair.ratio} |`,
      );
    }
  }
  for (const w of allWorkloads.filter((x) => report.workloads[x.name].plan)) {
    lines.push('');
    lines.push(`Plan of the ${w.name} statement (EXPLAIN (ANALYZE, BUFFERS), after the runs):`);
    lines.push('');
    lines.push('```');
    lines.push(report.workloads[w.name].plan);
    lines.push('```');
  }
  const failed = allWorkloads.filter((w) =>
    Object.values(report.workloads[w.name].legs).some((l) => l.non2xx || l.errors),
  );
  const differ = allWorkloads.filter((w) => report.workloads[w.name].sameAnswer === false);
  if (failed.length || differ.length) {
    lines.push('');
    if (failed.length)
      lines.push(`**Failed requests** in: ${failed.map((w) => w.name).join(', ')} (see the JSON).`);
    if (differ.length)
      lines.push(`**The baseline answered differently** in: ${differ.map((w) => w.name).join(', ')}.`);
  }
  if (config.profile) {
    lines.push('');
    lines.push(
      "CPU profiles of the API over each workload's closed-loop rounds (self time; the profiler slows the API, so the ratios of a profiled run are not comparable):",
    );
    for (const w of allWorkloads) {
      for (const [label, p] of Object.entries(report.workloads[w.name].profiles ?? {})) {
        lines.push('');
        lines.push(
          `**${w.name}**, ${label}: ${n(p.busyMs)} ms busy, ${n(p.idleMs)} ms idle. By area: ${p.areas.map((a) => `${a.area} ${a.share} %`).join(', ')}.`,
        );
        lines.push('');
        lines.push('| self ms | % | function | where | mostly called by |');
        lines.push('|---|---|---|---|---|');
        for (const f of p.functions) {
          lines.push(`| ${f.selfMs} | ${f.share} | \`${f.function}\` | ${f.where || ''} | ${f.calledBy} |`);
        }
      }
    }
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------- main

async function main() {
  const workloads = selectWorkloads(config.workloads);
  log(
    `workloads: ${workloads.map((w) => w.name).join(', ')}; ${JSON.stringify({ ...config, workloads: undefined })}`,
  );
  const idleCores = await idleMachineLoad();
  log(
    `before start: other tenants keep ${idleCores} cores busy; load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );

  const profileDir = config.profile ? fs.mkdtempSync(path.join(os.tmpdir(), 'bench-profile-')) : undefined;
  // what the chosen workloads add to the servers' environment (issue 15: PUBLIC_BASE_URL, TRUST_PROXY_HOPS)
  const apiEnv = Object.assign({}, ...workloads.map((w) => w.apiEnv ?? {}));
  const baselineEnv = Object.assign({}, ...workloads.map((w) => w.baselineEnv ?? {}));
  // issue 18: the search workloads' million events take minutes to build, so their database is
  // kept between runs (bench/search-data.js); every other run gets a throwaway one
  const db = workloads.every((w) => w.section === 'search')
    ? await searchDatabase(config.leads)
    : await createBenchDatabase();
  const sides = {};
  const stops = [() => db.drop()];
  let meter;
  try {
    sides.api = await startApi({
      label: config.compare ? 'after' : 'API',
      databaseUrl: db.url,
      profileDir,
      env: apiEnv,
    });
    stops.unshift(() => sides.api.stop());
    const started = Date.now();
    let agency = db.agency;
    if (!agency) {
      log(`seeding ${config.leads} leads`);
      agency = await runOps(db.url, ['seed:demo', '--leads', String(config.leads), '--json']);
      // measure the API, not its budget
      await sql(db.url, 'update api_keys set rate_limit_per_minute = 100000000');
      await sql(db.url, 'vacuum analyze');
      await db.remember?.('agency', agency);
    } else log(`the kept database's agency ${agency.organizationId}`);
    const seedSeconds = round((Date.now() - started) / 1000, 1);
    if (config.compare) {
      sides.compare = await startApi({
        label: 'before',
        databaseUrl: db.url,
        root: config.compare,
        profileDir,
        env: apiEnv,
      });
      stops.unshift(() => sides.compare.stop());
    }
    sides.baseline = await startBaseline({ databaseUrl: db.url, env: baselineEnv });
    stops.unshift(() => sides.baseline.stop());
    meter = cpuMeter(db.name);
    stops.unshift(() => meter.end());

    const ctx = await prepareContext(db.url, agency.organizationId);
    const headers = { authorization: `Bearer ${agency.admin.apiKey}` };
    const [{ server_version: pg }] = await sql(db.url, 'show server_version');
    const info = machine(`PostgreSQL ${pg.split(' ')[0]}`);
    const report = {
      machine: { ...info, git: undefined },
      compareBuild: config.compare ? `${info.git(config.compare)} (${config.compare})` : undefined,
      config,
      seedSeconds,
      idleCores,
      searchTerms: { rare: ctx.rare, common: ctx.common },
      workloads: {},
    };
    for (const workload of workloads) {
      if (workload.prepare) {
        const legCount = [sides.api, sides.compare, sides.baseline].filter(Boolean).length;
        await workload.prepare({
          databaseUrl: db.url,
          ctx,
          agency,
          legCount,
          rounds: config.rounds,
          api: sides.api,
          headers,
          db,
        });
      }
      // a workload of its own shape (`documents-big`: the API alone, three sub-rows) runs itself
      report.workloads[workload.name] = workload.run
        ? await workload.run({ sides, ctx, meter, headers, config })
        : await runWorkload(workload, sides, ctx, meter, headers);
    }
    const others = Object.values(report.workloads).flatMap((w) =>
      Object.values(w.legs).flatMap((l) => [
        ...l.perRound.map((r) => r.cores.others),
        ...(l.open ? [l.open.cores.others] : []),
      ]),
    );
    report.noise = { median: round(median(others), 2), max: round(Math.max(...others), 2) };
    report.loadAverageAtEnd = os.loadavg().map((l) => round(l, 2));

    const file = path.join(os.tmpdir(), `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    fs.writeFileSync(file, JSON.stringify(report, null, 2));
    log(`every number: ${file}`);
    console.log(markdown(report, workloads, sides, ctx));
  } finally {
    for (const stop of stops) await stop().catch((err) => log(`stopping: ${err.message}`));
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
