'use strict';
// Issue 15's workloads (bench/README.md "Documents (issue 15)"), not in the default set:
// - `documents-big`: the API alone, three sub-rows of a count of requests each: create a
//   1,000,000-character Markdown document, read it, render its public page (`GET /d/{token}`).
// - `documents-list`, `documents-list-body`: `GET /v1/documents?q=&limit=20` over 20,000 seeded
//   documents, against the baseline's same route (the same built statement, unprepared, and the
//   same attachment counts), closed loop only.
const { v7: uuidv7 } = require('uuid');
const { log, sql, seededRandom, getJson, closedLoop, round, summarizeProfile } = require('./lib');

const env = process.env;
/** `documents-big`: requests per sub-row (create, read, render), connections, warm-up requests. */
const BIG_REQUESTS = Number(env.BENCH_DOCUMENTS_BIG_REQUESTS ?? 200);
const BIG_CONNECTIONS = Number(env.BENCH_DOCUMENTS_BIG_CONNECTIONS ?? 4);
const BIG_WARMUP = Number(env.BENCH_DOCUMENTS_BIG_WARMUP ?? 10);
const BIG_CODE_POINTS = 1_000_000;
/** `documents-list*`: documents seeded in the agency; connections of the closed loop. */
const LIST_DOCUMENTS = Number(env.BENCH_DOCUMENTS ?? 20_000);
const LIST_CONNECTIONS = Number(env.BENCH_DOCUMENTS_LIST_CONNECTIONS ?? 8);
const LIST_LIMIT = 20;
/**
 * Both the API and the baseline write share URLs with this base (PUBLIC_BASE_URL), so the list's
 * shared rows compare equal.
 */
const PUBLIC_BASE_URL = 'https://docs.bench.test';

// ---------------------------------------------------------------- realistic Markdown

const TOWNS = [
  'Málaga',
  'Córdoba',
  'Cádiz',
  'Sevilla',
  'Almería',
  'Jaén',
  'Granada',
  'Huelva',
  'Marbella',
  'Estepona',
  'Nerja',
  'Ronda',
  'Mijas',
  'Fuengirola',
  'Torremolinos',
  'Alhaurín',
  'Vélez-Málaga',
  'Antequera',
  'Logroño',
  'Ávila',
  'León',
  'Cáceres',
  'Gijón',
  'Alcalá de Henares',
  'Móstoles',
  'Getafe',
  'Bilbao',
  'Valencia',
  'Alicante',
  'Castellón',
  'Murcia',
  'Cartagena',
  'Zaragoza',
  'Teruel',
  'Huesca',
  'Girona',
];
/** The `documents-list` title term: in about 1 % of the seeded titles, in no body. */
const RARE_TOWN = 'Benalmádena';
/** The `documents-list-body` term: in about 2 % of the seeded bodies, in no title. */
const BODY_TERM = 'usufructo';
const KINDS = [
  'Piso',
  'Ático',
  'Chalet',
  'Dúplex',
  'Casa adosada',
  'Estudio',
  'Local',
  'Villa',
  'Finca',
  'Bajo',
];
const TITLE_TAILS = [
  '',
  '',
  '',
  ' — notas de visita',
  ' — contrato de arras',
  ' (reformado)',
  ' con vistas al mar',
  ' — checklist',
  ' — informe de tasación',
  ' con terraza',
  ': condiciones',
  ' — borrador',
];
const WORDS = (
  'la casa tiene una cocina amplia y luminosa con salón comedor terraza orientada al sur dormitorio ' +
  'principal baño completo armarios empotrados calefacción aire acondicionado ascensor garaje trastero ' +
  'piscina comunitaria jardín zona tranquila cerca del centro colegios supermercados transporte público ' +
  'el propietario acepta ofertas razonables precio negociable gastos de comunidad impuesto de bienes ' +
  'inmuebles certificado energético nota simple registro hipoteca notaría reforma integral suelo de ' +
  'mármol ventanas de aluminio doble acristalamiento persianas eléctricas año de construcción metros ' +
  'útiles construidos habitación señor señora visita mañana tarde llamar confirmar documentación the ' +
  'buyer asked about the community fees and whether pets are allowed viewing scheduled for saturday ' +
  'morning follow up with the notary next week añadir fotos del baño y de la azotea también pequeño ' +
  'desperfecto en la cocina reparación pendiente según el vendedor'
).split(' ');
const EXTRAS = ['€', 'm²', 'ñ', 'ü', '🏠', '✅', '東京', '½', '«', '»', '—', '…'];

/** A word: mostly plain, sometimes an accent-heavy or multi-byte one. */
const word = (random) => {
  const w = WORDS[Math.floor(random() * WORDS.length)];
  return random() < 0.02 ? `${w} ${EXTRAS[Math.floor(random() * EXTRAS.length)]}` : w;
};
const sentence = (random) => {
  const n = 6 + Math.floor(random() * 14);
  const words = Array.from({ length: n }, () => word(random));
  if (random() < 0.1) {
    const at = Math.floor(random() * n);
    words[at] = `**${words[at]}**`;
  }
  if (random() < 0.08) {
    const at = Math.floor(random() * n);
    words[at] = `[${words[at]}](https://example.com/inmuebles/${Math.floor(random() * 100_000)})`;
  }
  const text = words.join(' ');
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
};
const paragraph = (random) =>
  Array.from({ length: 2 + Math.floor(random() * 5) }, () => sentence(random)).join(' ');
const table = (random) => {
  const rows = Array.from({ length: 2 + Math.floor(random() * 5) }, () => {
    const town = TOWNS[Math.floor(random() * TOWNS.length)];
    return `| ${town} | ${40 + Math.floor(random() * 200)} m² | ${(90 + Math.floor(random() * 900)) * 1000} € |`;
  });
  return ['| Zona | Superficie | Precio |', '|---|---:|---:|', ...rows].join('\n');
};
const list = (random) =>
  Array.from({ length: 2 + Math.floor(random() * 4) }, () => `- ${sentence(random)}`).join('\n');

/**
 * GFM Markdown of `codePoints` code points exactly (headings, paragraphs with bold and links,
 * tables, lists; Spanish with accents, some €, m², emoji and CJK); `mention` is put into one
 * paragraph when given.
 */
function markdown(random, codePoints, mention) {
  if (mention) {
    // a paragraph of its own at a block boundary, after the cut (so never cut off)
    const said = `Consultar el ${mention} antes de firmar.`;
    const blocks = markdown(random, Math.max(1, codePoints - said.length - 2)).split('\n\n');
    blocks.splice(Math.floor(random() * (blocks.length + 1)), 0, said);
    return blocks.join('\n\n');
  }
  const blocks = [];
  let length = 0;
  let section = 0;
  while (length < codePoints) {
    const r = random();
    let block;
    if (r < 0.08) block = `## ${section++ + 1}. ${sentence(random).slice(0, -1)}`;
    else if (r < 0.14) block = table(random);
    else if (r < 0.22) block = list(random);
    else block = paragraph(random);
    blocks.push(block);
    length += block.length + 2;
  }
  const text = blocks.join('\n\n');
  // exactly codePoints code points (a cut never splits a surrogate pair: Array.from walks code points)
  const points = Array.from(text);
  if (points.length <= codePoints) return text + '.'.repeat(codePoints - points.length);
  return points.slice(0, codePoints).join('');
}

/** Code points of a string. */
const codePointsOf = (text) => {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
};

// ---------------------------------------------------------------- documents-big

/** A different client IP per request (`X-Forwarded-For`, read with TRUST_PROXY_HOPS=1): the page's 60/min per IP is never met. */
const forwardedFor = (i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

/**
 * The three sub-rows, one after the other, on the API only: a warm-up of BIG_WARMUP requests,
 * then BIG_REQUESTS requests in a closed loop of BIG_CONNECTIONS connections, CPU measured.
 */
async function runDocumentsBig({ sides, ctx, meter, headers, config }) {
  const api = sides.api;
  const random = seededRandom(15);
  const body = markdown(random, BIG_CODE_POINTS);
  const bytes = Buffer.byteLength(body, 'utf8');
  const bodyJson = JSON.stringify(body);
  log(
    `documents-big: body of ${codePointsOf(body).toLocaleString('en')} code points, ${bytes.toLocaleString('en')} UTF-8 bytes, ` +
      `${Buffer.byteLength(bodyJson).toLocaleString('en')} bytes as JSON`,
  );
  const result = {
    name: 'documents-big',
    bodyCodePoints: codePointsOf(body),
    bodyBytes: bytes,
    legs: {},
    pairs: [],
    warmup: {},
    // with BENCH_PROFILE=1: the API's CPU profile of each sub-row's measured requests
    profiles: {},
  };
  let created = 0;
  const phases = {
    create: () => () => {
      created += 1;
      return {
        method: 'POST',
        path: '/v1/documents',
        body: `{"title":${JSON.stringify(`Bench big ${created}`)},"body":${bodyJson}}`,
      };
    },
  };
  const phase = async (name, next, base = headers) => {
    // (autocannon wants no more connections than requests)
    const connections = (amount) => Math.min(BIG_CONNECTIONS, amount);
    if (BIG_WARMUP > 0) {
      const warm = await closedLoop({
        base: api.base,
        next: next(),
        headers: base,
        connections: connections(BIG_WARMUP),
        amount: BIG_WARMUP,
      });
      result.warmup[name] = { requests: warm.requests, statuses: warm.statuses, errors: warm.errors };
      if (warm.non2xx || warm.errors)
        log(`documents-big ${name} warm-up: ${JSON.stringify(warm.statuses)}, ${warm.errors} errors`);
    }
    if (config.profile) await api.ask({ profile: 'start' });
    const run = await meter.measure(api.pid, () =>
      closedLoop({
        base: api.base,
        next: next(),
        headers: base,
        connections: connections(BIG_REQUESTS),
        amount: BIG_REQUESTS,
      }),
    );
    if (config.profile) {
      const { profiled: file } = await api.ask({ profile: 'stop', label: `documents-big-${name}` });
      result.profiles[name] = { file, ...summarizeProfile(file) };
    }
    const bad =
      run.non2xx || run.errors
        ? ` (${run.non2xx} non-2xx ${JSON.stringify(run.statuses)}, ${run.errors} errors)`
        : '';
    log(
      `documents-big ${name}: ${run.rps} req/s, p50 ${run.p50} p99 ${run.p99} ms (2xx: p50 ${run.okP50} p99 ${run.okP99}), ` +
        `server CPU ${run.serverCpuMsPerRequest} ms/req, PostgreSQL ${run.dbCpuMsPerRequest} ms/req, others ${run.cores.others} cores${bad}`,
    );
    result.legs[name] = {
      rps: run.rps,
      okRps: run.okRps,
      p50: run.p50,
      p99: run.p99,
      okP50: run.okP50,
      okP99: run.okP99,
      requests: run.requests,
      statuses: run.statuses,
      serverCpuMsPerRequest: run.serverCpuMsPerRequest,
      dbCpuMsPerRequest: run.dbCpuMsPerRequest,
      othersCores: { median: run.cores.others, max: run.cores.others },
      non2xx: run.non2xx,
      errors: run.errors,
      perRound: [run],
    };
  };

  // create: a new document each (title `Bench big <n>`)
  log(
    `documents-big: create, ${BIG_WARMUP} warm-up then ${BIG_REQUESTS} POSTs, ${BIG_CONNECTIONS} connections`,
  );
  await phase('create', phases.create);

  // read: the created documents, drawn by a seeded generator; first check one round-trips whole
  const ids = (
    await sql(
      ctx.databaseUrl,
      `select id from documents where organization_id = $1 and title like 'Bench big %' order by created_at, id`,
      [ctx.organizationId],
    )
  ).map((row) => row.id);
  if (ids.length === 0) throw new Error('documents-big: no document was created');
  const first = await getJson(api.base, `/v1/documents/${ids[0]}`, headers);
  result.roundTrip = first.status === 200 && first.body.body === body && first.body.sizeBytes === bytes;
  log(
    `documents-big: ${ids.length} documents created; GET answers ${first.status}, the body ${result.roundTrip ? 'comes back whole' : '**differs from the one sent**'}`,
  );
  await phase('read', () => {
    const draw = seededRandom(16);
    return () => `/v1/documents/${ids[Math.floor(draw() * ids.length)]}`;
  });

  // render: 4 of them shared; each request from its own client IP
  const tokens = [];
  for (const id of ids.slice(0, 4)) {
    const res = await getJson(
      api.base,
      `/v1/documents/${id}/share`,
      { ...headers, 'content-type': 'application/json' },
      'POST',
      '{}',
    );
    if (res.status !== 200 || !res.body.shareUrl)
      throw new Error(`documents-big: share answered ${res.status}`);
    tokens.push(res.body.shareUrl.split('/d/')[1]);
  }
  const probe = await fetch(`${api.base}/d/${tokens[0]}`, {
    headers: { 'x-forwarded-for': forwardedFor(0) },
  });
  const html = await probe.text();
  if (probe.status === 404) {
    log(
      'documents-big: render SKIPPED: GET /d/<token> answers 404 for a live share: this build has no public page route yet',
    );
    result.renderSkipped =
      'GET /d/<token> answered 404 for a live share (no public page route on this build)';
  } else if (probe.status !== 200) {
    log(`documents-big: render SKIPPED: GET /d/<token> answered ${probe.status}: ${html.slice(0, 300)}`);
    result.renderSkipped = `GET /d/<token> answered ${probe.status}`;
  } else {
    result.pageBytes = Buffer.byteLength(html);
    log(
      `documents-big: the page answers 200 ${probe.headers.get('content-type')}, ${result.pageBytes.toLocaleString('en')} bytes of HTML`,
    );
    let ip = 1;
    // no credential: a reader of the link
    await phase(
      'render',
      () => {
        let i = 0;
        return () => ({
          method: 'GET',
          path: `/d/${tokens[i++ % tokens.length]}`,
          headers: { 'x-forwarded-for': forwardedFor(ip++) },
        });
      },
      {},
    );
  }
  return result;
}

// ---------------------------------------------------------------- documents-list

/** A title: "Piso en Málaga", "Ático en Córdoba — notas de visita"; about 1 % in RARE_TOWN. */
const title = (random) => {
  const town = random() < 0.01 ? RARE_TOWN : TOWNS[Math.floor(random() * TOWNS.length)];
  const kind = KINDS[Math.floor(random() * KINDS.length)];
  return `${kind} en ${town}${TITLE_TAILS[Math.floor(random() * TITLE_TAILS.length)]}`;
};

/**
 * LIST_DOCUMENTS Markdown documents of 1-6 KB in the agency, with SQL (batches of 1,000): about
 * 60 % `organization`, 35 % `private` (the admin's or a member's), 5 % `public` (a live share,
 * some expiring in 30 days); a few with assignees or listings; about 15 % attached to 1-3 leads.
 * Times spread over the last year. Then `vacuum analyze`.
 */
async function seedDocuments({ databaseUrl, ctx, agency }) {
  if (ctx.documents) return;
  const started = Date.now();
  const random = seededRandom(150);
  const people = [agency.admin.userId, ...agency.members.map((m) => m.userId)];
  const now = Date.now();
  const YEAR = 365 * 86_400_000;
  let titleMatches = 0;
  let bodyMatches = 0;
  let attachments = 0;
  let bodyBytes = 0;
  for (let from = 0; from < LIST_DOCUMENTS; from += 1000) {
    const rows = [];
    const attached = [];
    for (let i = from; i < Math.min(LIST_DOCUMENTS, from + 1000); i++) {
      const t = title(random);
      if (t.includes(RARE_TOWN)) titleMatches += 1;
      const mention = random() < 0.02 ? BODY_TERM : undefined;
      if (mention) bodyMatches += 1;
      const body = markdown(random, 1000 + Math.floor(random() * 5000), mention);
      bodyBytes += Buffer.byteLength(body);
      const createdAt = now - Math.floor(random() * YEAR);
      const updatedAt = Math.min(now - 60_000, createdAt + Math.floor(random() * 30 * 86_400_000));
      const v = random();
      const visibility = v < 0.6 ? 'organization' : v < 0.95 ? 'private' : 'public';
      const id = uuidv7({ msecs: createdAt });
      rows.push({
        id,
        title: t,
        body,
        visibility,
        createdBy: people[Math.floor(random() * people.length)],
        assigneeIds: random() < 0.1 ? [people[Math.floor(random() * people.length)]] : [],
        shareToken: visibility === 'public' ? Buffer.from(uuidv7() + i).toString('base64url') : null,
        shareExpiresAt: visibility === 'public' && random() < 0.4 ? new Date(now + 30 * 86_400_000) : null,
        listings: random() < 0.05 ? [`LST-${Math.floor(random() * 10_000)}`] : [],
        createdAt: new Date(createdAt),
        updatedAt: new Date(updatedAt),
      });
      if (random() < 0.15) {
        const n = 1 + Math.floor(random() * 3);
        const leads = new Set(
          Array.from({ length: n }, () => ctx.leadIds[Math.floor(random() * ctx.leadIds.length)]),
        );
        for (const leadId of leads) attached.push({ documentId: id, leadId, at: new Date(updatedAt) });
      }
    }
    await sql(
      databaseUrl,
      `insert into documents (id, organization_id, title, kind, body, visibility, created_by, assignee_ids,
                              share_token, share_expires_at, size_bytes, attached_listing_ids, created_at, updated_at)
       select r.id, $1, r.title, 'markdown', r.body, r.visibility, r.created_by,
              array(select jsonb_array_elements_text(r.assignees)::uuid), r.share_token, r.share_expires_at,
              octet_length(r.body), array(select jsonb_array_elements_text(r.listings)), r.created_at, r.updated_at
         from unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::uuid[], $7::jsonb[], $8::text[],
                     $9::timestamptz[], $10::jsonb[], $11::timestamptz[], $12::timestamptz[])
           as r(id, title, body, visibility, created_by, assignees, share_token, share_expires_at, listings,
                created_at, updated_at)`,
      [
        ctx.organizationId,
        rows.map((r) => r.id),
        rows.map((r) => r.title),
        rows.map((r) => r.body),
        rows.map((r) => r.visibility),
        rows.map((r) => r.createdBy),
        rows.map((r) => JSON.stringify(r.assigneeIds)),
        rows.map((r) => r.shareToken),
        rows.map((r) => r.shareExpiresAt),
        rows.map((r) => JSON.stringify(r.listings)),
        rows.map((r) => r.createdAt),
        rows.map((r) => r.updatedAt),
      ],
    );
    if (attached.length) {
      attachments += attached.length;
      await sql(
        databaseUrl,
        `insert into document_lead_attachments (organization_id, document_id, lead_id, attached_by, attached_at)
         select $1, d, l, $2, a from unnest($3::uuid[], $4::bigint[], $5::timestamptz[]) as x(d, l, a)
         on conflict do nothing`,
        [
          ctx.organizationId,
          agency.admin.userId,
          attached.map((a) => a.documentId),
          attached.map((a) => a.leadId),
          attached.map((a) => a.at),
        ],
      );
    }
  }
  await sql(databaseUrl, 'vacuum analyze documents');
  await sql(databaseUrl, 'vacuum analyze document_lead_attachments');
  const mb = round(bodyBytes / 2 ** 20, 1);
  ctx.documents = {
    seeded: LIST_DOCUMENTS,
    seconds: round((Date.now() - started) / 1000, 1),
    bodyMiB: mb,
    attachments,
    title: { term: RARE_TOWN, seededMatches: titleMatches },
    body: { term: BODY_TERM, seededMatches: bodyMatches },
  };
  log(
    `documents: ${LIST_DOCUMENTS.toLocaleString('en')} documents seeded in ${ctx.documents.seconds} s (${mb} MiB of Markdown, ` +
      `${attachments.toLocaleString('en')} lead attachments); "${RARE_TOWN}" in ${titleMatches} titles, "${BODY_TERM}" in ${bodyMatches} bodies`,
  );
}

/** The list's check: both sides' answers (keys sorted), and the total the API reports. */
const listPath = (term) => `/v1/documents?q=${encodeURIComponent(term)}&limit=${LIST_LIMIT}`;

const listWorkload = (which, label) => ({
  title: `\`GET /v1/documents?q=<${label}>&limit=${LIST_LIMIT}\` over ${LIST_DOCUMENTS.toLocaleString('en')} documents, ${LIST_CONNECTIONS} connections`,
  row: (ctx) =>
    `\`GET /v1/documents?q=${ctx.documents[which].term}&limit=${LIST_LIMIT}\` (${label}: ${n(ctx.documents[which].matches ?? ctx.documents[which].seededMatches)} matches)`,
  section: 'documents',
  connections: LIST_CONNECTIONS,
  open: false,
  apiEnv: { PUBLIC_BASE_URL },
  baselineEnv: { PUBLIC_BASE_URL },
  prepare: async (args) => {
    await seedDocuments(args);
    // the total the API answers for the term (the row label's match count)
    const res = await getJson(args.api.base, listPath(args.ctx.documents[which].term), args.headers);
    args.ctx.documents[which].matches = res.body?.total;
  },
  path: (ctx) => () => listPath(ctx.documents[which].term),
});

const n = (value) => (value === null || value === undefined ? '–' : Number(value).toLocaleString('en'));
const ms = (value) =>
  value === null || value === undefined ? '–' : String(round(value, value < 10 ? 1 : 0));

// ---------------------------------------------------------------- report

/** Issue 15's tables: `documents-big` (API only, three sub-rows) and the lists (API against the baseline). */
function documentsMarkdown(report, workloads, sides, ctx, config) {
  const lines = [];
  const big = workloads.find((w) => w.name === 'documents-big');
  if (big) {
    const r = report.workloads[big.name];
    lines.push(
      `\`documents-big\`: the API alone; a body of ${n(r.bodyCodePoints)} code points (${n(r.bodyBytes)} UTF-8 bytes); ` +
        `${n(BIG_REQUESTS)} requests per row after ${n(BIG_WARMUP)} warm-up, ${BIG_CONNECTIONS} connections, closed loop; ` +
        `the body ${r.roundTrip ? 'read back whole' : '**did not read back whole**'}${r.pageBytes ? `; the page is ${n(r.pageBytes)} bytes of HTML` : ''}.`,
    );
    lines.push('');
    lines.push(
      "| request | requests | req/s | p50 / p99 | answers other than 2xx | CPU ms/req API / PostgreSQL | others' cores |",
    );
    lines.push('|---|---|---|---|---|---|---|');
    const rows = {
      create: '`POST /v1/documents` (1,000,000 characters)',
      read: '`GET /v1/documents/{id}`',
      render: '`GET /d/{token}` (the public page)',
    };
    for (const [name, label] of Object.entries(rows)) {
      const leg = r.legs[name];
      if (!leg) {
        lines.push(`| ${label} | – | skipped: ${r.renderSkipped ?? 'not run'} | | | | |`);
        continue;
      }
      const others = Object.entries(leg.statuses)
        .filter(([code]) => !code.startsWith('2'))
        .map(([code, count]) => `${n(count)} × ${code}`);
      lines.push(
        `| ${label} | ${n(leg.requests)} | ${n(leg.rps)} | ${ms(leg.p50)} / ${ms(leg.p99)} ms | ${others.join(', ') || 'none'}${leg.errors ? `, ${leg.errors} errors` : ''} | ` +
          `${leg.serverCpuMsPerRequest} / ${leg.dbCpuMsPerRequest} | ${leg.othersCores.median} |`,
      );
    }
  }
  const lists = workloads.filter((w) => w.name !== 'documents-big');
  if (lists.length) {
    if (lines.length) lines.push('');
    const d = ctx.documents;
    lines.push(
      `Lists: ${n(d?.seeded)} documents in the agency (${d?.bodyMiB} MiB of Markdown, ${n(d?.attachments)} lead attachments), ` +
        `${config.rounds} rounds × ${config.seconds} s per leg, interleaved A B B A, after a ${config.warmupSeconds} s warm-up; ` +
        `${LIST_CONNECTIONS} connections; closed loop; medians.`,
    );
    lines.push('');
    lines.push(
      '| workload | API req/s | baseline req/s | ratio (range over rounds) | API p50 / p99 | baseline p50 / p99 | ' +
        "CPU ms/req API / baseline | PostgreSQL CPU ms/req API / baseline | same answer | others' cores (median, max) |",
    );
    lines.push('|---|---|---|---|---|---|---|---|---|---|');
    for (const w of lists) {
      const r = report.workloads[w.name];
      const a = r.legs[sides.api.label];
      const b = r.legs[sides.baseline.label];
      const pair = r.pairs.find((p) => p.label === sides.api.label);
      lines.push(
        `| ${typeof w.row === 'function' ? w.row(ctx) : w.row} | ${n(a.rps)} | ${n(b.rps)} | **${pair.ratio}** (${pair.range[0]}–${pair.range[1]}) | ` +
          `${ms(a.p50)} / ${ms(a.p99)} ms | ${ms(b.p50)} / ${ms(b.p99)} ms | ${a.serverCpuMsPerRequest} / ${b.serverCpuMsPerRequest} | ` +
          `${a.dbCpuMsPerRequest} / ${b.dbCpuMsPerRequest} | ${r.sameAnswer ? 'yes' : '**no**'} | ` +
          `${a.othersCores.median}, ${Math.max(a.othersCores.max, b.othersCores.max)} |`,
      );
    }
  }
  return lines;
}

const DOCUMENT_WORKLOADS = {
  'documents-big': {
    title: `a 1,000,000-character document: create, read, render its public page; ${BIG_REQUESTS} each, ${BIG_CONNECTIONS} connections, the API alone`,
    row: '`documents-big`',
    section: 'documents',
    // the page's per-IP limit (60/min) read from X-Forwarded-For, one address per request
    apiEnv: { PUBLIC_BASE_URL, TRUST_PROXY_HOPS: '1' },
    run: runDocumentsBig,
  },
  'documents-list': listWorkload('title', 'a rare title word'),
  'documents-list-body': listWorkload('body', 'a body word'),
};

module.exports = { DOCUMENT_WORKLOADS, documentsMarkdown, markdown, codePointsOf };
