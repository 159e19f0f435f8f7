'use strict';
// Issue 17's workloads (bench/README.md "Issue 17: brochure page and viewings"), not in the default set:
// - `brochure-page`: `GET /b/{slug}` of an active brochure with 10 listing snapshots, with a browser
//   User-Agent, so every GET is a counted view (one UPDATE of the brochure's row each).
// - `viewings-list`: `GET /v1/viewings?limit=20&from=…` as the admin, over 20,000 viewings of the agency.
// Against the baseline's same routes (the same SELECTs and UPDATE and the API's own pure renderer;
// the API's own built list statement, unprepared, and its own row mapping), closed loop only.
const { createHash } = require('node:crypto');
const path = require('node:path');
const { v7: uuidv7 } = require('uuid');
const { Client } = require('pg');
const { ROOT, log, sql, seededRandom, getJson, canonical, round } = require('./lib');

const env = process.env;
/** Viewings seeded in the demo agency; brochures beside the measured ones; connections of the closed loop. */
const VIEWINGS = Number(env.BENCH_VIEWINGS ?? 20_000);
const OTHER_BROCHURES = Number(env.BENCH_BROCHURES ?? 300);
const CONNECTIONS = Number(env.BENCH_NETWORK_CONNECTIONS ?? 8);
/** `brochure-page`: GETs per leg after the runs, each awaited, that view_count must count exactly. */
const EXACT_VIEWS = Number(env.BENCH_BROCHURE_EXACT_VIEWS ?? 400);
/** A browser's User-Agent: no bot, crawler, spider or preview in it, so each GET counts a view. */
const BROWSER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
/** `BENCH_BROCHURE_USER_AGENT`: another User-Agent (e.g. `Googlebot/2.1`: no view counted, no UPDATE). */
const USER_AGENT = env.BENCH_BROCHURE_USER_AGENT || BROWSER;
/** Whether the User-Agent's GETs count views (the API's rule, `countsAsView`). */
const COUNTED = !/bot|crawler|spider|preview/i.test(USER_AGENT);
/** A different client IP per request (`X-Forwarded-For`, read with TRUST_PROXY_HOPS=1): the public pages' 60/min per IP is never met. */
const forwardedFor = (i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

const n = (value) => (value === null || value === undefined ? '–' : Number(value).toLocaleString('en'));
const ms = (value) =>
  value === null || value === undefined ? '–' : String(round(value, value < 10 ? 1 : 0));

// ---------------------------------------------------------------- brochure-page

const CITIES = [
  ['Málaga', 36.7213, -4.4214, 'Andalucía', '29015'],
  ['Marbella', 36.5101, -4.8825, 'Andalucía', '29601'],
  ['Estepona', 36.4276, -5.1459, 'Andalucía', '29680'],
  ['Nerja', 36.7582, -3.8737, 'Andalucía', '29780'],
  ['Fuengirola', 36.5397, -4.6247, 'Andalucía', '29640'],
];
const TYPES = ['apartment', 'villa', 'penthouse', 'townhouse', 'house'];
const FEATURES = ['pool', 'garden', 'terrace', 'sea_view', 'elevator', 'parking', 'air_conditioning'];
const DESCRIPTION =
  'Bright home a short walk from the beach, with a large terrace facing south-west and views over the ' +
  'bay. The living room opens onto the terrace; the kitchen is fitted & equipped. Bedrooms with built-in ' +
  'wardrobes, two bathrooms (one en suite), air conditioning throughout, storage room and a parking space ' +
  'in the building. Community pool and gardens, 24-hour concierge. "Ideal as a main home or a holiday home."\n' +
  'Close to schools, shops, restaurants and the promenade; 20 minutes from the airport.';

/** The 10 listing records of a brochure, as snapshots hold them (never `commission`). */
function snapshots(random) {
  return Array.from({ length: 10 }, (_, i) => {
    const [city, lat, lon, region, postalCode] = CITIES[i % CITIES.length];
    const type = TYPES[Math.floor(random() * TYPES.length)];
    const rent = i === 7;
    return {
      snapshot: {
        id: uuidv7(),
        ref: { source: 'internal', id: uuidv7() },
        title: `${type === 'villa' ? 'Villa' : 'Home'} ${i + 1} in ${city} <with views>`,
        reference: `REF-${String(1000 + i)}`,
        description: DESCRIPTION,
        operation: rent ? 'rent' : 'sale',
        rentPeriod: rent ? 'month' : null,
        propertyType: type,
        status: 'ACTIVE',
        price: rent ? '2400.00' : `${Math.round(200 + random() * 1800) * 1000}.00`,
        currency: 'EUR',
        countryCode: 'ES',
        region,
        community: region,
        city,
        addressLine1: `Calle Larios ${1 + i}`,
        postalCode,
        coordinates: {
          lat: round(lat + (random() - 0.5) * 0.05, 6),
          lon: round(lon + (random() - 0.5) * 0.05, 6),
        },
        bedrooms: 1 + Math.floor(random() * 5),
        bathrooms: 1 + Math.floor(random() * 3),
        livingArea: Math.round(60 + random() * 240),
        areaUnit: 'sqm',
        energyRating: 'B',
        features: FEATURES.filter(() => random() < 0.5),
        images: Array.from({ length: 8 }, (__, k) => ({
          mediaId: null,
          url: `https://img.bench.test/listings/${i}/${k}.jpg`,
          caption: k === 0 ? `Terrace of home ${i + 1}` : null,
        })),
      },
      edits:
        i === 2
          ? { title: 'Our pick: the penthouse' }
          : i === 5
            ? { hiddenFields: ['address', 'price'] }
            : {},
    };
  });
}

/**
 * The measured brochures (one per leg, so each leg's view count is its own, and one for the
 * answer check), all alike but their slug, plus OTHER_BROCHURES of the agency (10 copies each) so
 * the tables are not trivially small; the admin's agent row with a full card; then `vacuum analyze`.
 */
async function seedBrochures({ databaseUrl, ctx, agency }) {
  if (ctx.brochures) return;
  const started = Date.now();
  const random = seededRandom(170);
  const org = ctx.organizationId;
  const agentUserId = agency.admin.userId;
  await sql(
    databaseUrl,
    `insert into agents (id, organization_id, clerk_user_id, first_name, last_name, avatar_url, display_email,
                         phone_number, title, is_active, share_contact_on_network, created_at, updated_at)
     select gen_random_uuid(), $1, u.id, u.first_name, u.last_name, 'https://img.bench.test/agents/admin.jpg',
            u.email, '+34 600 123 456', 'Senior agent', true, false, now(), now()
       from users u where u.id = $2
     on conflict (organization_id, clerk_user_id) where clerk_user_id is not null
     do update set avatar_url = excluded.avatar_url, phone_number = excluded.phone_number, title = excluded.title`,
    [org, agentUserId],
  );
  const copies = snapshots(random);
  const now = Date.now();
  const measured = ['check', 'leg-1', 'leg-2', 'leg-3', 'leg-4'];
  const brochures = [
    ...measured.map((name) => ({ slug: `homes-for-ana-garcia-bench${name.replace('-', '')}`, copies })),
    ...Array.from({ length: OTHER_BROCHURES }, (_, i) => ({
      slug: `brochure-${i}-${uuidv7().replace(/-/g, '').slice(-10)}`,
      copies: snapshots(random),
    })),
  ].map((b, i) => ({ ...b, id: uuidv7(), createdAt: new Date(now - (i + 1) * 3_600_000) }));
  for (let from = 0; from < brochures.length; from += 100) {
    const batch = brochures.slice(from, from + 100);
    await sql(
      databaseUrl,
      `insert into brochures (id, organization_id, slug, title, recipient_name, recipient_note, status,
                              show_locations, theme_name, accent_color_override, agent_user_id, creator_user_id,
                              lead_ids, expires_in_days, expires_at, view_count, created_at, updated_at)
       select r.id, $1, r.slug, 'Homes for Ana & Luis', 'Ana García',
              'As promised, the homes we talked about.' || chr(10) || 'Call me for a viewing!', 'active', true,
              'coastal', null, $2, $2, '{}', 90, r.created_at + interval '90 days', 0, r.created_at, r.created_at
         from unnest($3::uuid[], $4::text[], $5::timestamptz[]) as r(id, slug, created_at)`,
      [org, agentUserId, batch.map((b) => b.id), batch.map((b) => b.slug), batch.map((b) => b.createdAt)],
    );
    const rows = batch.flatMap((b) => b.copies.map((copy, position) => ({ b, copy, position })));
    await sql(
      databaseUrl,
      `insert into brochure_listings (id, brochure_id, organization_id, position, source, source_id, country,
                                      snapshot, edits, refreshed_at, created_at)
       select gen_random_uuid(), r.brochure_id, $1, r.position, 'internal', r.source_id, null, r.snapshot, r.edits,
              r.created_at, r.created_at
         from unnest($2::uuid[], $3::int[], $4::text[], $5::jsonb[], $6::jsonb[], $7::timestamptz[])
           as r(brochure_id, position, source_id, snapshot, edits, created_at)`,
      [
        org,
        rows.map((r) => r.b.id),
        rows.map((r) => r.position),
        rows.map((r) => r.copy.snapshot.ref.id),
        rows.map((r) => JSON.stringify(r.copy.snapshot)),
        rows.map((r) => JSON.stringify(r.copy.edits)),
        rows.map((r) => r.b.createdAt),
      ],
    );
  }
  await sql(databaseUrl, 'vacuum analyze brochures');
  await sql(databaseUrl, 'vacuum analyze brochure_listings');
  ctx.brochures = {
    seconds: round((Date.now() - started) / 1000, 1),
    count: brochures.length,
    check: brochures[0].slug,
    free: brochures.slice(1, measured.length).map((b) => b.slug),
    /** leg name → { slug, sent } */
    legs: {},
    ip: 0,
  };
  log(
    `brochures: ${n(brochures.length)} brochures of 10 listing copies each, seeded in ${ctx.brochures.seconds} s`,
  );
}

/** The leg's own brochure (assigned on its first request). */
function legBrochure(ctx, legName) {
  let leg = ctx.brochures.legs[legName];
  if (!leg) {
    const slug = ctx.brochures.free.shift();
    if (!slug) throw new Error('brochure-page: more legs than brochures');
    leg = { slug, sent: 0 };
    ctx.brochures.legs[legName] = leg;
  }
  return leg;
}

const viewCountOf = async (databaseUrl, slug) =>
  (await sql(databaseUrl, 'select view_count from brochures where slug = $1', [slug]))[0].view_count;

const pageHeaders = (ip) => ({ 'user-agent': USER_AGENT, 'x-forwarded-for': forwardedFor(ip % 65_536) });

const brochurePage = {
  title: `\`GET /b/{slug}\`: an active brochure of 10 listing copies, User-Agent ${COUNTED ? 'of a browser (each GET a counted view)' : `${USER_AGENT} (no view counted)`}, ${CONNECTIONS} connections`,
  row: `\`GET /b/{slug}\` (10 listing copies, ${COUNTED ? 'each GET a counted view' : `User-Agent ${USER_AGENT}: no view counted`})`,
  section: 'network',
  connections: CONNECTIONS,
  open: false,
  apiEnv: { TRUST_PROXY_HOPS: '1' },
  prepare: async (args) => {
    await seedBrochures(args);
    const res = await fetch(`${args.api.base}/b/${args.ctx.brochures.check}`, {
      method: 'HEAD',
      headers: pageHeaders(0),
    });
    if (res.status !== 200) throw new Error(`brochure-page: HEAD /b/<slug> answered ${res.status}`);
  },
  request: (ctx, legName) => {
    const leg = legBrochure(ctx, legName);
    const route = `/b/${leg.slug}`;
    return () => {
      leg.sent += 1;
      return { method: 'GET', path: route, headers: pageHeaders(ctx.brochures.ip++) };
    };
  },
  // the same brochure on every side: the status, content type and HTML must be identical (compared
  // by hash; on a difference the first differing characters are logged)
  check: async (legs, ctx) => {
    const answers = [];
    for (const leg of legs) {
      const res = await fetch(`${leg.server.base}/b/${ctx.brochures.check}`, {
        headers: pageHeaders(ctx.brochures.ip++),
      });
      answers.push({ status: res.status, type: res.headers.get('content-type'), html: await res.text() });
    }
    ctx.brochures.bytes = Buffer.byteLength(answers[0].html);
    const first = answers[0].html;
    for (const [i, a] of answers.entries()) {
      if (a.html === first) continue;
      let at = 0;
      while (at < first.length && first[at] === a.html[at]) at++;
      log(`brochure-page: ${legs[i].name} differs from ${legs[0].name} at character ${at}:`);
      log(`  ${legs[0].name}: ${JSON.stringify(first.slice(Math.max(0, at - 80), at + 120))}`);
      log(`  ${legs[i].name}: ${JSON.stringify(a.html.slice(Math.max(0, at - 80), at + 120))}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // the API writes its views once a second
    const views = await viewCountOf(ctx.databaseUrl, ctx.brochures.check);
    ctx.brochures.checkViews = { expected: COUNTED ? legs.length : 0, counted: views };
    log(
      `brochure-page: the check brochure counted ${views} views for ${legs.length} GETs (User-Agent ${USER_AGENT})`,
    );
    return answers.map(
      (a) =>
        `${a.status} ${a.type} ${Buffer.byteLength(a.html)} bytes, sha256 ${createHash('sha256').update(a.html).digest('hex').slice(0, 16)}`,
    );
  },
  // Views: over the timed runs, each leg's brochure against the GETs sent to it (once the count
  // holds still: a server still works through what a run left queued after autocannon hung up);
  // then EXACT_VIEWS GETs awaited one by one (8 at a time) on each side, whose count must grow by
  // exactly that many.
  after: async ({ ctx, legs }) => {
    const views = {};
    for (const leg of legs) {
      const mine = ctx.brochures.legs[leg.name];
      // the server may still be working through requests the timed run left in its queue, and the
      // API writes its views once a second: wait until the count holds still for 1.5 s
      let counted = await viewCountOf(ctx.databaseUrl, mine.slug);
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        const again = await viewCountOf(ctx.databaseUrl, mine.slug);
        if (again === counted) break;
        counted = again;
      }
      const before = counted;
      let ok = 0;
      let next = 0;
      const worker = async () => {
        while (next < EXACT_VIEWS) {
          next += 1;
          const res = await fetch(`${leg.server.base}/b/${mine.slug}`, {
            headers: pageHeaders(ctx.brochures.ip++),
          });
          await res.arrayBuffer();
          if (res.status === 200) ok += 1;
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
      await new Promise((resolve) => setTimeout(resolve, 1_500)); // the API's views flush
      const grew = (await viewCountOf(ctx.databaseUrl, mine.slug)) - before;
      const expected = COUNTED ? EXACT_VIEWS : 0;
      views[leg.name] = {
        sent: mine.sent,
        counted,
        exactSent: EXACT_VIEWS,
        exactOk: ok,
        exactGrew: grew,
        exact: grew === expected && counted === (COUNTED ? mine.sent : 0),
      };
      log(
        `brochure-page ${leg.name}: timed runs ${n(mine.sent)} GETs sent (warm-up included), ${n(counted)} views counted; ` +
          `then ${EXACT_VIEWS} GETs awaited (${ok} × 200): view_count grew by ${grew}${grew === expected ? ' (exact)' : ' (**not exact**)'}`,
      );
    }
    return { views, checkViews: ctx.brochures.checkViews, pageBytes: ctx.brochures.bytes };
  },
};

// ---------------------------------------------------------------- viewings-list

const KINDS = ['in_person', 'in_person', 'in_person', 'virtual'];
const NOTE =
  'Client liked the terrace and the light; worried about the noise from the street. Asked about the ' +
  'community fees and whether the parking space can be bought separately. ';

/** VIEWINGS viewings of the agency: over the last year and the next 90 days, deterministic; then `vacuum analyze`. */
async function seedViewings({ databaseUrl, ctx, agency }) {
  if (ctx.viewings) return;
  const started = Date.now();
  const random = seededRandom(171);
  const now = Date.now();
  const people = [agency.admin.userId, ...agency.members.map((m) => m.userId)];
  const leadIds = ctx.leadIds;
  const pick = (list) => list[Math.floor(random() * list.length)];
  for (let from = 0; from < VIEWINGS; from += 5000) {
    const rows = Array.from({ length: Math.min(5000, VIEWINGS - from) }, () => {
      const at = now + Math.floor((random() * 455 - 365) * 86_400_000);
      const past = at < now;
      const created = Math.min(at, now) - Math.floor(random() * 14 * 86_400_000);
      const r = random();
      const notes = r < 0.4 ? null : r < 0.95 ? NOTE : NOTE.repeat(5);
      const others = random() < 0.2 ? [pick(leadIds), ...(random() < 0.3 ? [pick(leadIds)] : [])] : [];
      return {
        id: uuidv7({ msecs: created }),
        leadId: pick(leadIds),
        listingId: random() < 0.7 ? uuidv7() : null,
        others: `{${others.join(',')}}`,
        collaborator: random() < 0.1 ? pick(leadIds) : null,
        agent: random() < 0.9 ? pick(people) : null,
        at: new Date(at),
        kind: pick(KINDS),
        status: past ? pick(['completed', 'completed', 'completed', 'cancelled', 'no_show']) : 'scheduled',
        notes,
        source: random() < 0.8 ? 'api' : 'user',
        createdBy: pick(people),
        created: new Date(created),
      };
    });
    const column = (f) => rows.map(f);
    await sql(
      databaseUrl,
      `insert into viewings (id, organization_id, lead_id, property_listing_id, other_lead_ids, collaborator_lead_id,
                             agent_user_id, deal_id, viewing_at, kind, status, notes, source, created_by,
                             created_at, updated_at)
       select r.id, $1, r.lead_id, r.listing_id, r.others::bigint[], r.collaborator, r.agent, null, r.at, r.kind,
              r.status, r.notes, r.source, r.created_by, r.created, r.created
         from unnest($2::uuid[], $3::bigint[], $4::uuid[], $5::text[], $6::bigint[], $7::uuid[], $8::timestamptz[],
                     $9::text[], $10::text[], $11::text[], $12::text[], $13::uuid[], $14::timestamptz[])
           as r(id, lead_id, listing_id, others, collaborator, agent, at, kind, status, notes, source, created_by,
                created)`,
      [
        ctx.organizationId,
        column((r) => r.id),
        column((r) => r.leadId),
        column((r) => r.listingId),
        column((r) => r.others),
        column((r) => r.collaborator),
        column((r) => r.agent),
        column((r) => r.at),
        column((r) => r.kind),
        column((r) => r.status),
        column((r) => r.notes),
        column((r) => r.source),
        column((r) => r.createdBy),
        column((r) => r.created),
      ],
    );
  }
  await sql(databaseUrl, 'vacuum analyze viewings');
  // `from`: 180 days ago, to the second (the same query string on every side and every run)
  const fromDate = new Date(Math.floor((now - 180 * 86_400_000) / 1000) * 1000);
  const [counts] = await sql(
    databaseUrl,
    `select count(*)::int as all_rows, count(*) filter (where viewing_at >= $2)::int as matches
       from viewings where organization_id = $1`,
    [ctx.organizationId, fromDate],
  );
  ctx.viewings = {
    seconds: round((Date.now() - started) / 1000, 1),
    rows: counts.all_rows,
    matches: counts.matches,
    from: fromDate.toISOString(),
  };
  log(
    `viewings: ${n(counts.all_rows)} in the agency (${n(counts.matches)} from ${ctx.viewings.from}), seeded in ${ctx.viewings.seconds} s`,
  );
}

const viewingsPath = (ctx) => `/v1/viewings?limit=20&from=${encodeURIComponent(ctx.viewings.from)}`;

/** EXPLAIN (ANALYZE, BUFFERS) of the list's statement as the admin runs it (unnamed, as both sides run it). */
async function explainViewings(databaseUrl, ctx) {
  const list = require(path.join(ROOT, 'dist/libs/network/src/application/viewing-list.sql.js'));
  const statement = list.viewingListStatement(
    { organizationId: ctx.organizationId, member: null },
    { from: new Date(ctx.viewings.from) },
    0,
    20,
  );
  let i = 0;
  const text = statement.sql.replace(/\?/g, () => `$${++i}`);
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(`explain (analyze, buffers) ${text}`, statement.params);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  } finally {
    await client.end();
  }
}

const viewingsList = {
  title: `\`GET /v1/viewings?limit=20&from=…\` as the admin over ${n(VIEWINGS)} viewings of the agency, ${CONNECTIONS} connections`,
  row: (ctx) =>
    `\`GET /v1/viewings?limit=20&from=…\` (${n(ctx.viewings?.matches)} of ${n(ctx.viewings?.rows)} viewings match)`,
  section: 'network',
  connections: CONNECTIONS,
  open: false,
  prepare: async (args) => {
    await seedViewings(args);
    const res = await getJson(args.api.base, viewingsPath(args.ctx), args.headers);
    if (res.status !== 200)
      throw new Error(`viewings-list: answered ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    if (res.body.total !== args.ctx.viewings.matches)
      throw new Error(`viewings-list: total ${res.body.total}, expected ${args.ctx.viewings.matches}`);
  },
  path: (ctx) => {
    const route = viewingsPath(ctx);
    return () => route;
  },
  check: async (legs, ctx, headers) => {
    const texts = [];
    for (const leg of legs) {
      const res = await getJson(leg.server.base, viewingsPath(ctx), headers);
      texts.push(`${res.status} ${canonical(res.body)}`);
    }
    return texts;
  },
  after: async ({ ctx }) => {
    const plan = await explainViewings(ctx.databaseUrl, ctx);
    log(`viewings-list: plan of the statement:\n${plan}`);
    return { plan };
  },
};

const NETWORK_WORKLOADS = { 'brochure-page': brochurePage, 'viewings-list': viewingsList };

/** Issue 17's table: the brochure page and the viewings list against the baseline. */
function networkMarkdown(report, workloads, sides, ctx, config) {
  const lines = [];
  const b = ctx.brochures;
  const v = ctx.viewings;
  lines.push(
    [
      b
        ? `Brochures: ${n(b.count)} active brochures of 10 listing copies each, one per leg measured (the page is ${n(b.bytes)} bytes of HTML).`
        : '',
      v ? `Viewings: ${n(v.rows)} in the agency, ${n(v.matches)} from \`${v.from}\`.` : '',
      `${config.rounds} rounds × ${config.seconds} s per leg, interleaved A B B A, after a ${config.warmupSeconds} s warm-up; ` +
        `${CONNECTIONS} connections; closed loop; medians.`,
    ]
      .filter(Boolean)
      .join(' '),
  );
  lines.push('');
  lines.push(
    '| workload | API req/s | baseline req/s | ratio (range over rounds) | API p50 / p99 | baseline p50 / p99 | ' +
      "CPU ms/req API / baseline | PostgreSQL CPU ms/req API / baseline | same answer | others' cores (median, max) |",
  );
  lines.push('|---|---|---|---|---|---|---|---|---|---|');
  for (const w of workloads) {
    const r = report.workloads[w.name];
    const a = r.legs[sides.api.label];
    const base = r.legs[sides.baseline.label];
    const pair = r.pairs.find((p) => p.label === sides.api.label);
    lines.push(
      `| ${typeof w.row === 'function' ? w.row(ctx) : w.row} | ${n(a.rps)} | ${n(base.rps)} | **${pair.ratio}** (${pair.range[0]}–${pair.range[1]}) | ` +
        `${ms(a.p50)} / ${ms(a.p99)} ms | ${ms(base.p50)} / ${ms(base.p99)} ms | ${a.serverCpuMsPerRequest} / ${base.serverCpuMsPerRequest} | ` +
        `${a.dbCpuMsPerRequest} / ${base.dbCpuMsPerRequest} | ${r.sameAnswer ? 'yes' : '**no**'} | ` +
        `${a.othersCores.median}, ${Math.max(a.othersCores.max, base.othersCores.max)} |`,
    );
  }
  const page = report.workloads['brochure-page'];
  if (page?.views) {
    lines.push('');
    lines.push(
      `Views counted (\`view_count\` of each leg's own brochure; User-Agent \`${USER_AGENT}\`, ${COUNTED ? 'each GET a view' : 'no GET a view'}): ` +
        Object.entries(page.views)
          .map(
            ([leg, x]) =>
              `${leg}: ${n(x.counted)} of ${n(x.sent)} GETs sent in the timed runs, then ${n(x.exactSent)} awaited GETs ` +
              `(${n(x.exactOk)} × 200) grew it by ${n(x.exactGrew)}${x.exact ? ' (as expected)' : ' (**not as expected**)'}`,
          )
          .join('; ') +
        (page.checkViews
          ? `; the check brochure ${page.checkViews.counted} of ${page.checkViews.expected}.`
          : '.'),
    );
  }
  return lines;
}

module.exports = { NETWORK_WORKLOADS, networkMarkdown, snapshots };
