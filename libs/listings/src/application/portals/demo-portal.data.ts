import {
  FEATURE_SLUGS,
  PROPERTY_TYPE_LABELS,
  type EnergyRating,
  type ListingCondition,
  type ListingOperation,
  type PortalCountry,
  type PropertyType,
  type RentPeriod,
} from '../../domain/listing-catalogue';
import type { ListingSummary } from '../../views/listing-summary';

/**
 * `demoportal`'s sample listings: 200 per country (es, it, pt), generated from a seeded PRNG at
 * first use (no network, no bundled file), identical on every machine and run. Ids `dp-es-0001`
 * … `dp-pt-0200`; real cities with coordinates scattered a few km around their centre; prices in
 * EUR; feature slugs from the catalogue; images on picsum.photos seeded by the id.
 */
export interface DemoListing extends ListingSummary {
  ref: { source: string; id: string; country: PortalCountry };
  description: string;
  rentPeriod: RentPeriod | null;
  region: string;
  postalCode: string;
  address: string;
  features: string[];
  energyRating: EnergyRating;
  condition: ListingCondition;
  yearBuilt: number | null;
  images: { url: string; caption: string | null }[];
  agencyName: string;
  url: string;
}

interface City {
  name: string;
  region: string;
  lat: number;
  lon: number;
  postal: string;
}

const CITIES: Record<PortalCountry, readonly City[]> = {
  es: [
    { name: 'Madrid', region: 'Comunidad de Madrid', lat: 40.4168, lon: -3.7038, postal: '280' },
    { name: 'Barcelona', region: 'Cataluña', lat: 41.3874, lon: 2.1686, postal: '080' },
    { name: 'Valencia', region: 'Comunidad Valenciana', lat: 39.4699, lon: -0.3763, postal: '460' },
    { name: 'Sevilla', region: 'Andalucía', lat: 37.3891, lon: -5.9845, postal: '410' },
    { name: 'Málaga', region: 'Andalucía', lat: 36.7213, lon: -4.4214, postal: '290' },
    { name: 'Marbella', region: 'Andalucía', lat: 36.5101, lon: -4.8825, postal: '296' },
    { name: 'Estepona', region: 'Andalucía', lat: 36.4276, lon: -5.1459, postal: '296' },
    { name: 'Alicante', region: 'Comunidad Valenciana', lat: 38.3452, lon: -0.481, postal: '030' },
    { name: 'Palma', region: 'Islas Baleares', lat: 39.5696, lon: 2.6502, postal: '070' },
    { name: 'Bilbao', region: 'País Vasco', lat: 43.263, lon: -2.935, postal: '480' },
  ],
  it: [
    { name: 'Roma', region: 'Lazio', lat: 41.9028, lon: 12.4964, postal: '001' },
    { name: 'Milano', region: 'Lombardia', lat: 45.4642, lon: 9.19, postal: '201' },
    { name: 'Firenze', region: 'Toscana', lat: 43.7696, lon: 11.2558, postal: '501' },
    { name: 'Lucca', region: 'Toscana', lat: 43.8429, lon: 10.5027, postal: '551' },
    { name: 'Napoli', region: 'Campania', lat: 40.8518, lon: 14.2681, postal: '801' },
    { name: 'Venezia', region: 'Veneto', lat: 45.4408, lon: 12.3155, postal: '301' },
    { name: 'Torino', region: 'Piemonte', lat: 45.0703, lon: 7.6869, postal: '101' },
    { name: 'Bologna', region: 'Emilia-Romagna', lat: 44.4949, lon: 11.3426, postal: '401' },
    { name: 'Palermo', region: 'Sicilia', lat: 38.1157, lon: 13.3615, postal: '901' },
    { name: 'Como', region: 'Lombardia', lat: 45.8081, lon: 9.0852, postal: '221' },
  ],
  pt: [
    { name: 'Lisboa', region: 'Lisboa', lat: 38.7223, lon: -9.1393, postal: '1' },
    { name: 'Porto', region: 'Porto', lat: 41.1579, lon: -8.6291, postal: '4' },
    { name: 'Cascais', region: 'Lisboa', lat: 38.6979, lon: -9.4215, postal: '2' },
    { name: 'Sintra', region: 'Lisboa', lat: 38.8029, lon: -9.3817, postal: '2' },
    { name: 'Faro', region: 'Algarve', lat: 37.0194, lon: -7.9304, postal: '8' },
    { name: 'Lagos', region: 'Algarve', lat: 37.1028, lon: -8.673, postal: '8' },
    { name: 'Albufeira', region: 'Algarve', lat: 37.0891, lon: -8.2479, postal: '8' },
    { name: 'Braga', region: 'Braga', lat: 41.5454, lon: -8.4265, postal: '4' },
    { name: 'Coimbra', region: 'Coimbra', lat: 40.2033, lon: -8.4103, postal: '3' },
    { name: 'Funchal', region: 'Madeira', lat: 32.6669, lon: -16.9241, postal: '9' },
  ],
};

const STREETS: Record<PortalCountry, readonly string[]> = {
  es: [
    'Calle Mayor',
    'Avenida del Mar',
    'Calle Real',
    'Paseo de la Castellana',
    'Calle del Sol',
    'Camino Viejo',
  ],
  it: ['Via Roma', 'Corso Italia', 'Via Garibaldi', 'Via Dante', 'Piazza del Duomo', 'Via dei Mille'],
  pt: [
    'Rua Augusta',
    'Avenida da Liberdade',
    'Rua do Comércio',
    'Rua Direita',
    'Largo do Carmo',
    'Rua das Flores',
  ],
};

const AGENCIES: Record<PortalCountry, readonly string[]> = {
  es: ['Inmobiliaria Costa Sol', 'Casas del Norte', 'Mediterráneo Homes', 'Hogar Ibérico'],
  it: ['Immobiliare Bel Paese', 'Casa Toscana', 'Agenzia Lungomare', 'Dimore Italiane'],
  pt: ['Imobiliária Atlântico', 'Casas do Algarve', 'Lisboa Prime', 'Lar Português'],
};

const TYPE_WEIGHTS: readonly [PropertyType, number][] = [
  ['apartment', 30],
  ['house', 14],
  ['villa', 12],
  ['townhouse', 8],
  ['penthouse', 6],
  ['studio', 6],
  ['duplex', 5],
  ['land', 5],
  ['commercial', 4],
  ['office', 4],
  ['garage', 3],
  ['other', 3],
];

/** Living area range (m²) and sale price per m² range (EUR) by type. */
const SIZES: Record<PropertyType, { area: [number, number]; perSqm: [number, number] }> = {
  apartment: { area: [45, 160], perSqm: [1800, 6500] },
  house: { area: [90, 320], perSqm: [1500, 4500] },
  villa: { area: [180, 650], perSqm: [2500, 9000] },
  townhouse: { area: [90, 220], perSqm: [1600, 4200] },
  penthouse: { area: [80, 260], perSqm: [3000, 9500] },
  studio: { area: [25, 45], perSqm: [2200, 6000] },
  duplex: { area: [90, 200], perSqm: [2000, 5000] },
  land: { area: [0, 0], perSqm: [40, 400] },
  commercial: { area: [60, 500], perSqm: [1200, 4000] },
  office: { area: [50, 400], perSqm: [1500, 5000] },
  garage: { area: [12, 30], perSqm: [800, 2500] },
  other: { area: [40, 200], perSqm: [1000, 3000] },
};

const RESIDENTIAL = new Set<PropertyType>([
  'apartment',
  'house',
  'villa',
  'townhouse',
  'penthouse',
  'studio',
  'duplex',
]);
const WITH_PLOT = new Set<PropertyType>(['house', 'villa', 'townhouse', 'land']);
const ENERGY: readonly EnergyRating[] = ['A+', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'exempt', 'in_progress'];
const CONDITIONS: readonly ListingCondition[] = [
  'new',
  'excellent',
  'good',
  'needs_renovation',
  'under_construction',
];
const COUNTRY_SEEDS: Record<PortalCountry, number> = { es: 0x5eed_e5, it: 0x5eed_17, pt: 0x5eed_b7 };
/** The listings are dated back from here (not "now": the data must not change with the clock). */
const EPOCH = Date.UTC(2026, 9, 1);
const DAY_MS = 86_400_000;
export const DEMO_LISTINGS_PER_COUNTRY = 200;

/** mulberry32: a small, fast, seeded PRNG (0 ≤ n < 1). */
const prng = (seed: number) => {
  let a = seed >>> 0;
  return (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
};

type Random = ReturnType<typeof prng>;
const between = (random: Random, min: number, max: number) => min + random() * (max - min);
const intBetween = (random: Random, min: number, max: number) => Math.floor(between(random, min, max + 1));
const pick = <T>(random: Random, values: readonly T[]): T => values[Math.floor(random() * values.length)];
const weighted = <T>(random: Random, entries: readonly [T, number][]): T => {
  let n = random() * entries.reduce((sum, [, weight]) => sum + weight, 0);
  for (const [value, weight] of entries) if ((n -= weight) < 0) return value;
  return entries[entries.length - 1][0];
};
const round = (value: number, step: number) => Math.round(value / step) * step;

const generate = (country: PortalCountry): DemoListing[] => {
  const random = prng(COUNTRY_SEEDS[country]);
  const listings: DemoListing[] = [];
  for (let n = 1; n <= DEMO_LISTINGS_PER_COUNTRY; n++) {
    const id = `dp-${country}-${String(n).padStart(4, '0')}`;
    const city = pick(random, CITIES[country]);
    const propertyType = weighted(random, TYPE_WEIGHTS);
    const operation: ListingOperation = propertyType !== 'land' && random() < 0.25 ? 'rent' : 'sale';
    const size = SIZES[propertyType];
    const residential = RESIDENTIAL.has(propertyType);
    const livingArea = propertyType === 'land' ? null : intBetween(random, ...size.area);
    const plotArea = WITH_PLOT.has(propertyType)
      ? round(
          between(random, propertyType === 'land' ? 500 : 150, propertyType === 'land' ? 20_000 : 2_500),
          10,
        )
      : null;
    const bedrooms = !residential
      ? null
      : propertyType === 'studio'
        ? 0
        : Math.max(1, Math.min(7, Math.round((livingArea ?? 60) / 45 + between(random, -0.6, 0.6))));
    const bathrooms = !residential
      ? propertyType === 'commercial' || propertyType === 'office'
        ? 1
        : null
      : Math.max(1, Math.min(bedrooms ?? 1, Math.round((bedrooms ?? 1) * between(random, 0.5, 1.1)) || 1)) +
        (random() < 0.2 ? 0.5 : 0);
    const salePrice = (livingArea ?? plotArea ?? 100) * between(random, ...size.perSqm);
    const price =
      operation === 'sale'
        ? round(salePrice, 1_000)
        : round(Math.max(350, salePrice * between(random, 0.0035, 0.005)), 50);
    const features = FEATURE_SLUGS.filter((slug) => {
      if (!residential && slug !== 'parking' && slug !== 'air_conditioning' && slug !== 'elevator')
        return random() < 0.03;
      if (slug === 'private_pool') return propertyType === 'villa' && random() < 0.6;
      if (slug === 'garden' || slug === 'bbq') return WITH_PLOT.has(propertyType) && random() < 0.55;
      if (slug === 'pets_allowed') return operation === 'rent' && random() < 0.4;
      return random() < 0.18;
    });
    const createdAt = new Date(
      EPOCH - intBetween(random, 0, 364) * DAY_MS - intBetween(random, 0, 86_399) * 1000,
    );
    const updatedAt = new Date(
      Math.min(
        EPOCH,
        createdAt.getTime() + intBetween(random, 0, 60) * DAY_MS + intBetween(random, 0, 3599) * 1000,
      ),
    );
    const jitter = () => between(random, -0.04, 0.04);
    const coordinates = {
      lat: Number((city.lat + jitter()).toFixed(6)),
      lon: Number((city.lon + jitter()).toFixed(6)),
    };
    const street = `${pick(random, STREETS[country])} ${intBetween(random, 1, 180)}`;
    const postalCode =
      country === 'pt'
        ? `${city.postal}${intBetween(random, 100, 999)}-${intBetween(random, 100, 999)}`
        : `${city.postal}${intBetween(random, 10, 99)}`;
    const title =
      bedrooms && bedrooms > 0
        ? `${bedrooms}-bedroom ${PROPERTY_TYPE_LABELS[propertyType].toLowerCase()} ${operation === 'rent' ? 'to rent' : 'for sale'} in ${city.name}`
        : `${PROPERTY_TYPE_LABELS[propertyType]} ${operation === 'rent' ? 'to rent' : 'for sale'} in ${city.name}`;
    const imageCount = intBetween(random, 1, 8);
    const images = Array.from({ length: imageCount }, (_, i) => ({
      url: `https://picsum.photos/seed/${i === 0 ? id : `${id}-${i + 1}`}/1200/800`,
      caption: i === 0 ? title : null,
    }));
    const energyRating = pick(random, ENERGY);
    const condition = pick(random, CONDITIONS);
    const agencyName = pick(random, AGENCIES[country]);
    listings.push({
      id,
      ref: { source: 'demoportal', id, country },
      title,
      reference: id.toUpperCase(),
      operation,
      propertyType,
      status: 'ACTIVE',
      price: price.toFixed(2),
      currency: 'EUR',
      rentPeriod: operation === 'rent' ? 'month' : null,
      bedrooms,
      bathrooms,
      livingArea,
      plotArea,
      areaUnit: 'sqm',
      city: city.name,
      community: city.region,
      region: city.region,
      postalCode,
      address: `${street}, ${city.name}`,
      countryCode: country.toUpperCase(),
      coordinates,
      features,
      energyRating,
      condition,
      yearBuilt:
        propertyType === 'land'
          ? null
          : condition === 'new' || condition === 'under_construction'
            ? 2026
            : intBetween(random, 1890, 2024),
      description:
        `${title}, listed by ${agencyName}. ` +
        (livingArea ? `${livingArea} m² of living space` : `${plotArea} m² plot`) +
        (plotArea && livingArea ? ` on a ${plotArea} m² plot` : '') +
        `, ${street}, ${city.name} (${city.region}).` +
        (features.length > 0 ? ` Features: ${features.join(', ').replace(/_/g, ' ')}.` : ''),
      images,
      mainImageUrl: images[0].url,
      imageCount,
      agencyName,
      url: `https://demoportal.example/${country}/${id}`,
      createdAt: createdAt.toISOString(),
      updatedAt: updatedAt.toISOString(),
    });
  }
  return listings;
};

let generated: ReadonlyMap<PortalCountry, readonly DemoListing[]> | null = null;

/** Every sample listing of `country`, generated once per process. */
export const demoListings = (country: PortalCountry): readonly DemoListing[] => {
  generated ??= new Map((['es', 'it', 'pt'] as const).map((c) => [c, generate(c)]));
  return generated.get(country) ?? [];
};
