'use strict';
// Issue 16's workloads (bench/README.md "Issue 16: listings"), not in the default set:
// - `listings-box`: `POST /properties/search` with a bounding box around Málaga (newest first, 20).
// - `listings-price`: a price range and bedroomsMin, sorted by price ascending (20).
// - `listings-count`: `POST /properties/count` with a type, price and bedrooms filter.
// Over 50,000 listings of the demo agency spread over Spain (plus 6,000 of three other agencies,
// most on the network), against the baseline's same routes (the same built statements, unprepared,
// the same row mapping), closed loop only; each statement's EXPLAIN (ANALYZE, BUFFERS) after the runs.
const path = require('node:path');
const { v7: uuidv7 } = require('uuid');
const { Client } = require('pg');
const { ROOT, log, sql, seededRandom, getJson, canonical, round } = require('./lib');

const env = process.env;
/** Listings seeded in the demo agency; per other agency; connections of the closed loop. */
const LISTINGS = Number(env.BENCH_LISTINGS ?? 50_000);
const OTHER_AGENCIES = 3;
const OTHER_LISTINGS = Number(env.BENCH_LISTINGS_OTHERS ?? 2_000);
const CONNECTIONS = Number(env.BENCH_LISTINGS_CONNECTIONS ?? 8);
/** Both sides answer image URLs with this base. */
const PUBLIC_BASE_URL = 'https://listings.bench.test';

/** Cities with their centre, region and a weight (about how many listings each gets). */
const CITIES = [
  ['Málaga', 36.7213, -4.4214, 'Andalucía', 7],
  ['Marbella', 36.5101, -4.8825, 'Andalucía', 6],
  ['Estepona', 36.4276, -5.1459, 'Andalucía', 4],
  ['Fuengirola', 36.5397, -4.6247, 'Andalucía', 3],
  ['Nerja', 36.7582, -3.8737, 'Andalucía', 2],
  ['Sevilla', 37.3891, -5.9845, 'Andalucía', 5],
  ['Granada', 37.1773, -3.5986, 'Andalucía', 3],
  ['Cádiz', 36.5271, -6.2886, 'Andalucía', 2],
  ['Córdoba', 37.8882, -4.7794, 'Andalucía', 2],
  ['Almería', 36.834, -2.4637, 'Andalucía', 2],
  ['Madrid', 40.4168, -3.7038, 'Comunidad de Madrid', 10],
  ['Alcalá de Henares', 40.4819, -3.3635, 'Comunidad de Madrid', 2],
  ['Barcelona', 41.3874, 2.1686, 'Cataluña', 9],
  ['Girona', 41.9794, 2.8214, 'Cataluña', 2],
  ['Tarragona', 41.1189, 1.2445, 'Cataluña', 2],
  ['Valencia', 39.4699, -0.3763, 'Comunitat Valenciana', 6],
  ['Alicante', 38.3452, -0.481, 'Comunitat Valenciana', 5],
  ['Benidorm', 38.5411, -0.1225, 'Comunitat Valenciana', 3],
  ['Torrevieja', 37.9787, -0.6822, 'Comunitat Valenciana', 4],
  ['Jávea', 38.7836, 0.1629, 'Comunitat Valenciana', 2],
  ['Murcia', 37.9922, -1.1307, 'Región de Murcia', 3],
  ['Cartagena', 37.6257, -0.9966, 'Región de Murcia', 2],
  ['Palma', 39.5696, 2.6502, 'Illes Balears', 4],
  ['Ibiza', 38.9067, 1.4206, 'Illes Balears', 2],
  ['Las Palmas', 28.1235, -15.4363, 'Canarias', 3],
  ['Santa Cruz de Tenerife', 28.4636, -16.2518, 'Canarias', 3],
  ['Bilbao', 43.263, -2.935, 'País Vasco', 2],
  ['San Sebastián', 43.3183, -1.9812, 'País Vasco', 2],
  ['Zaragoza', 41.6488, -0.8891, 'Aragón', 2],
  ['Valladolid', 41.6523, -4.7245, 'Castilla y León', 1],
];
const CITY_WEIGHT = CITIES.reduce((sum, city) => sum + city[4], 0);
const TYPES = [
  ['apartment', 38, 'Piso'],
  ['house', 10, 'Casa'],
  ['villa', 12, 'Villa'],
  ['townhouse', 8, 'Adosado'],
  ['penthouse', 6, 'Ático'],
  ['studio', 5, 'Estudio'],
  ['duplex', 5, 'Dúplex'],
  ['land', 4, 'Parcela'],
  ['commercial', 4, 'Local'],
  ['office', 2, 'Oficina'],
  ['garage', 3, 'Garaje'],
  ['other', 3, 'Inmueble'],
];
const TYPE_WEIGHT = TYPES.reduce((sum, type) => sum + type[1], 0);
const BASE_PRICE = {
  apartment: 220_000,
  house: 380_000,
  villa: 950_000,
  townhouse: 320_000,
  penthouse: 480_000,
  studio: 120_000,
  duplex: 340_000,
  land: 150_000,
  commercial: 260_000,
  office: 300_000,
  garage: 25_000,
  other: 180_000,
};
const STATUSES = [
  ['ACTIVE', 70],
  ['RESERVED', 5],
  ['SOLD', 9],
  ['RENTED', 3],
  ['WITHDRAWN', 5],
  ['DRAFT', 5],
  ['EXPIRED', 3],
];
const RATINGS = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'exempt', 'in_progress'];
const CONDITIONS = ['new', 'excellent', 'good', 'needs_renovation', 'under_construction'];
const FEATURES = [
  'pool',
  'garden',
  'terrace',
  'sea_view',
  'elevator',
  'parking',
  'air_conditioning',
  'storage_room',
];
const STREETS = [
  'Larios',
  'Mayor',
  'del Mar',
  'de la Playa',
  'Real',
  'Nueva',
  'San Juan',
  'Alameda',
  'del Sol',
];
const NO_BEDROOMS = new Set(['land', 'garage', 'commercial', 'office']);
const WITH_PLOT = new Set(['house', 'villa', 'townhouse', 'land']);

const weighted = (random, items, total, weightOf) => {
  let r = random() * total;
  for (const item of items) {
    r -= weightOf(item);
    if (r < 0) return item;
  }
  return items[items.length - 1];
};

/** One listing's columns, drawn from `random`. */
function listing(random, i, now) {
  const [city, lat, lon, region] = weighted(random, CITIES, CITY_WEIGHT, (c) => c[4]);
  const [type, , label] = weighted(random, TYPES, TYPE_WEIGHT, (t) => t[1]);
  const status = weighted(random, STATUSES, 100, (s) => s[1])[0];
  const rent = random() < 0.2 && type !== 'land';
  const price = rent
    ? 400 + Math.round((random() * 4600) / 50) * 50
    : Math.max(5_000, Math.round((BASE_PRICE[type] * (0.4 + random() * 1.6)) / 1000) * 1000);
  const bedrooms = NO_BEDROOMS.has(type) ? null : type === 'studio' ? 0 : 1 + Math.floor(random() * 6);
  const sqft = random() < 0.05;
  const living = type === 'land' ? null : Math.round(30 + random() * (type === 'villa' ? 600 : 220));
  const plot = WITH_PLOT.has(type) ? Math.round(100 + random() * 2000) : null;
  const createdAt = now - Math.floor(random() * 2 * 365 * 86_400_000);
  const updatedAt = Math.min(now - 60_000, createdAt + Math.floor(random() * 60 * 86_400_000));
  const images = Array.from({ length: Math.floor(random() * 16) }, () => ({
    mediaId: uuidv7(),
    extension: 'jpg',
    url: null,
    caption: null,
  }));
  const located = random() < 0.95;
  return {
    id: uuidv7({ msecs: createdAt }),
    reference: `REF-${String(i).padStart(6, '0')}`,
    title: `${label} en ${city}${random() < 0.3 ? ' con vistas' : ''}`,
    operation: rent ? 'rent' : 'sale',
    rentPeriod: rent ? 'month' : null,
    type,
    status,
    price,
    city,
    region,
    address: `Calle ${STREETS[Math.floor(random() * STREETS.length)]} ${1 + Math.floor(random() * 120)}`,
    lat: located ? round(lat + (random() - 0.5) * 0.2, 6) : null,
    lon: located ? round(lon + (random() - 0.5) * 0.25, 6) : null,
    exact: random() < 0.5,
    bedrooms,
    bathrooms: bedrooms === null ? null : 1 + Math.floor(random() * 6) / 2,
    unit: sqft ? 'sqft' : 'sqm',
    living: living === null ? null : sqft ? Math.round(living * 10.7639) : living,
    plot: plot === null ? null : sqft ? Math.round(plot * 10.7639) : plot,
    condition: CONDITIONS[Math.floor(random() * CONDITIONS.length)],
    rating: random() < 0.8 ? RATINGS[Math.floor(random() * RATINGS.length)] : null,
    features: FEATURES.filter(() => random() < 0.3),
    commission: round(2 + random() * 3, 2),
    images,
    networkVisible: random() < 0.9,
    deleted: random() < 0.01,
    createdAt: new Date(createdAt),
    updatedAt: new Date(updatedAt),
  };
}

/** `n` listings of `organizationId` with SQL, in batches of 5,000 (unnest of arrays). */
async function insertListings(databaseUrl, organizationId, agentIds, random, n, now) {
  for (let from = 0; from < n; from += 5000) {
    const rows = Array.from({ length: Math.min(5000, n - from) }, (_, k) => listing(random, from + k, now));
    const column = (f) => rows.map(f);
    await sql(
      databaseUrl,
      `insert into listings (id, organization_id, source, reference, title, operation, rent_period, property_type,
          status, price, currency, country_code, region, city, community, address_line1, lat, lon, show_exact_location,
          bedrooms, bathrooms, area_unit, living_area, plot_area, condition, energy_rating, features, commission,
          images, network_visible, agent_id, expires_at, created_at, updated_at, deleted_at)
       select r.id, $1, 'internal', r.reference, r.title, r.operation, r.rent_period, r.property_type, r.status,
              r.price, 'EUR', 'ES', r.region, r.city, r.region, r.address, r.lat, r.lon, r.exact, r.bedrooms,
              r.bathrooms, r.unit, r.living, r.plot, r.condition, r.rating,
              array(select jsonb_array_elements_text(r.features)), r.commission, r.images, r.network_visible,
              r.agent_id, r.updated_at + interval '90 days', r.created_at, r.updated_at,
              case when r.deleted then r.updated_at end
         from unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::numeric[],
                     $10::text[], $11::text[], $12::text[], $13::float8[], $14::float8[], $15::boolean[], $16::int[],
                     $17::numeric[], $18::text[], $19::numeric[], $20::numeric[], $21::text[], $22::text[], $23::jsonb[],
                     $24::numeric[], $25::jsonb[], $26::boolean[], $27::uuid[], $28::timestamptz[], $29::timestamptz[],
                     $30::boolean[])
           as r(id, reference, title, operation, rent_period, property_type, status, price, region, city, address,
                lat, lon, exact, bedrooms, bathrooms, unit, living, plot, condition, rating, features, commission,
                images, network_visible, agent_id, created_at, updated_at, deleted)`,
      [
        organizationId,
        column((r) => r.id),
        column((r) => r.reference),
        column((r) => r.title),
        column((r) => r.operation),
        column((r) => r.rentPeriod),
        column((r) => r.type),
        column((r) => r.status),
        column((r) => r.price),
        column((r) => r.region),
        column((r) => r.city),
        column((r) => r.address),
        column((r) => r.lat),
        column((r) => r.lon),
        column((r) => r.exact),
        column((r) => r.bedrooms),
        column((r) => r.bathrooms),
        column((r) => r.unit),
        column((r) => r.living),
        column((r) => r.plot),
        column((r) => r.condition),
        column((r) => r.rating),
        column((r) => JSON.stringify(r.features)),
        column((r) => r.commission),
        column((r) => JSON.stringify(r.images)),
        column((r) => r.networkVisible),
        column(() => (agentIds.length ? agentIds[Math.floor(random() * agentIds.length)] : null)),
        column((r) => r.createdAt),
        column((r) => r.updatedAt),
        column((r) => r.deleted),
      ],
    );
  }
}

/**
 * LISTINGS listings in the demo agency and OTHER_LISTINGS in each of three other agencies (made
 * here with SQL: the network scope's population), deterministic; then `vacuum analyze`.
 */
async function seedListings({ databaseUrl, ctx }) {
  if (ctx.listings) return;
  const started = Date.now();
  const random = seededRandom(160);
  const now = Date.now();
  const agents = await sql(databaseUrl, 'select id from agents where organization_id = $1 order by id', [
    ctx.organizationId,
  ]);
  await insertListings(
    databaseUrl,
    ctx.organizationId,
    agents.map((a) => a.id),
    random,
    LISTINGS,
    now,
  );
  for (let n = 1; n <= OTHER_AGENCIES; n++) {
    const id = uuidv7();
    await sql(
      databaseUrl,
      `insert into organizations (id, name, created_at, updated_at) values ($1, $2, now(), now())`,
      [id, `Bench network agency ${n}`],
    );
    await insertListings(databaseUrl, id, [], random, OTHER_LISTINGS, now);
  }
  await sql(databaseUrl, 'vacuum analyze listings');
  const [counts] = await sql(
    databaseUrl,
    `select count(*) filter (where organization_id = $1 and deleted_at is null and source = 'internal')::int as own,
            count(*)::int as all_rows
       from listings`,
    [ctx.organizationId],
  );
  ctx.listings = { seconds: round((Date.now() - started) / 1000, 1), own: counts.own, rows: counts.all_rows };
  log(
    `listings: ${n(counts.own)} live listings in the agency, ${n(counts.all_rows)} rows in all, seeded in ${ctx.listings.seconds} s`,
  );
}

const n = (value) => (value === null || value === undefined ? '–' : Number(value).toLocaleString('en'));
const ms = (value) =>
  value === null || value === undefined ? '–' : String(round(value, value < 10 ? 1 : 0));

/** Málaga's centre ± 0.05° (about 11 × 9 km). */
const MALAGA_BOX = { southWest: { lat: 36.67, lon: -4.47 }, northEast: { lat: 36.77, lon: -4.37 } };
const BODIES = {
  'listings-box': { path: '/properties/search', body: { boundingBox: MALAGA_BOX, limit: 20 } },
  'listings-price': {
    path: '/properties/search',
    body: { filters: { priceMin: 250_000, priceMax: 400_000, bedroomsMin: 3 }, sort: 'price_asc', limit: 20 },
  },
  'listings-count': {
    path: '/properties/count',
    body: { filters: { propertyTypes: ['apartment', 'penthouse'], priceMax: 300_000, bedroomsMin: 2 } },
  },
};

/** The statement a workload's body runs (the built module, as both sides run it). */
function statementOf(name, organizationId) {
  const sqlModule = require(path.join(ROOT, 'dist/libs/listings/src/application/listing-search.sql.js'));
  const { body } = BODIES[name];
  const scope = { organizationId, scope: 'own', source: 'internal' };
  if (name === 'listings-count') return sqlModule.listingCountStatement(scope, body);
  return sqlModule.listingPageStatement(scope, body, body.sort ?? 'newest', 0, body.limit);
}

/** EXPLAIN (ANALYZE, BUFFERS) of a workload's statement, unnamed as both sides run it. */
async function explain(databaseUrl, name, organizationId) {
  const statement = statementOf(name, organizationId);
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

const workload = (name, title, row) => ({
  title,
  row: (ctx) => `${row} (${n(ctx.listings?.[name])} matches)`,
  section: 'listings',
  connections: CONNECTIONS,
  open: false,
  apiEnv: { PUBLIC_BASE_URL },
  baselineEnv: { PUBLIC_BASE_URL },
  prepare: async (args) => {
    await seedListings(args);
    const { path: route, body } = BODIES[name];
    const res = await getJson(
      args.api.base,
      route,
      { ...args.headers, 'content-type': 'application/json' },
      'POST',
      JSON.stringify(body),
    );
    if (res.status !== 200)
      throw new Error(`${name}: ${route} answered ${res.status} ${JSON.stringify(res.body)}`);
    args.ctx.listings[name] = res.body.total ?? res.body.count;
  },
  request: () => {
    const { path: route, body } = BODIES[name];
    const text = JSON.stringify(body);
    return () => ({ method: 'POST', path: route, body: text });
  },
  check: async (legs, ctx, headers) => {
    const { path: route, body } = BODIES[name];
    const texts = [];
    for (const leg of legs) {
      const res = await getJson(
        leg.server.base,
        route,
        { ...headers, 'content-type': 'application/json' },
        'POST',
        JSON.stringify(body),
      );
      texts.push(`${res.status} ${canonical(res.body)}`);
    }
    return texts;
  },
  after: async ({ ctx }) => {
    const plan = await explain(ctx.databaseUrl, name, ctx.organizationId);
    log(`${name}: plan of the statement:\n${plan}`);
    return { plan };
  },
});

const LISTING_WORKLOADS = {
  'listings-box': workload(
    'listings-box',
    `\`POST /properties/search\` with a bounding box around Málaga, newest first, 20 a page, ${CONNECTIONS} connections`,
    '`POST /properties/search {boundingBox: Málaga ± 0.05°}`',
  ),
  'listings-price': workload(
    'listings-price',
    `\`POST /properties/search\` with price 250,000-400,000 and bedroomsMin 3, by price, 20 a page, ${CONNECTIONS} connections`,
    '`POST /properties/search {priceMin, priceMax, bedroomsMin, sort: price_asc}`',
  ),
  'listings-count': workload(
    'listings-count',
    `\`POST /properties/count\` with two types, priceMax and bedroomsMin, ${CONNECTIONS} connections`,
    '`POST /properties/count {propertyTypes, priceMax, bedroomsMin}`',
  ),
};

/** Issue 16's table: each search against the baseline. */
function listingsMarkdown(report, workloads, sides, ctx, config) {
  const lines = [];
  const l = ctx.listings ?? {};
  lines.push(
    `Listings: ${n(l.own)} live listings in the agency (${n(l.rows)} rows with three other agencies' and the deleted ones), ` +
      `${config.rounds} rounds × ${config.seconds} s per leg, interleaved A B B A, after a ${config.warmupSeconds} s warm-up; ` +
      `${CONNECTIONS} connections; closed loop; medians.`,
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
    const b = r.legs[sides.baseline.label];
    const pair = r.pairs.find((p) => p.label === sides.api.label);
    lines.push(
      `| ${typeof w.row === 'function' ? w.row(ctx) : w.row} | ${n(a.rps)} | ${n(b.rps)} | **${pair.ratio}** (${pair.range[0]}–${pair.range[1]}) | ` +
        `${ms(a.p50)} / ${ms(a.p99)} ms | ${ms(b.p50)} / ${ms(b.p99)} ms | ${a.serverCpuMsPerRequest} / ${b.serverCpuMsPerRequest} | ` +
        `${a.dbCpuMsPerRequest} / ${b.dbCpuMsPerRequest} | ${r.sameAnswer ? 'yes' : '**no**'} | ` +
        `${a.othersCores.median}, ${Math.max(a.othersCores.max, b.othersCores.max)} |`,
    );
  }
  return lines;
}

module.exports = { LISTING_WORKLOADS, listingsMarkdown };
