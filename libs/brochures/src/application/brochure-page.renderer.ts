import { escapeHtml, htmlPage } from '@app/platform';
import { BROCHURE_THEMES, FEATURE_CATALOGUE, PROPERTY_TYPE_LABELS } from '@app/listings';
import type { BrochureListingEdits, HiddenField } from '../domain/brochure-listing.entity';

/** What the public page shows of a brochure. */
export interface PageBrochure {
  title: string;
  recipientName: string | null;
  recipientNote: string | null;
  themeName: string;
  accentColorOverride: string | null;
  showLocations: boolean;
  expiresAt: Date;
}

/** A listing copy in position order: the snapshot as read, with its edits. */
export interface PageListing {
  snapshot: Record<string, unknown>;
  edits: BrochureListingEdits;
}

/** The agent card: the roster row of the brochure's agent. */
export interface PageAgent {
  firstName: string | null;
  lastName: string | null;
  title: string | null;
  displayEmail: string | null;
  phoneNumber: string | null;
  avatarUrl: string | null;
}

const ACCENT = /^#[0-9A-Fa-f]{6}$/;
const FEATURE_LABELS = new Map<string, string>(FEATURE_CATALOGUE.map((f) => [f.slug, f.label]));
const TYPE_LABELS = PROPERTY_TYPE_LABELS as Readonly<Record<string, string>>;

/** Per theme: the page's fonts and background (the accent colours headings, prices and links). */
const THEME_CSS: Readonly<Record<string, string>> = {
  classic: 'font-family:Georgia,serif;background:#fff',
  modern: 'font-family:system-ui,sans-serif;background:#fafafa',
  coastal: 'font-family:system-ui,sans-serif;background:#f0f9fb',
  luxury: 'font-family:Georgia,serif;background:#fbf8f2',
  countryside: 'font-family:Georgia,serif;background:#f7f9f2',
  urban: 'font-family:system-ui,sans-serif;background:#f5f5f5',
};

const STYLE = `<style>
.brochure{padding:1rem;border-top:6px solid var(--accent)}
.brochure h1,.brochure h2,.brochure .price{color:var(--accent)}
.brochure a{color:var(--accent)}
.note,.description{white-space:pre-line}
.agent{display:flex;gap:1rem;align-items:center;border:1px solid #ddd;padding:.75rem;margin:1rem 0}
.agent img{width:64px;height:64px;border-radius:50%;object-fit:cover}
.agent p{margin:0}
.listings{list-style:none;padding:0}
.listing{border-bottom:1px solid #ddd;padding:1rem 0}
.images{display:grid;grid-template-columns:repeat(auto-fill,minmax(10rem,1fr));gap:.5rem}
.facts,.features{display:flex;flex-wrap:wrap;gap:.25rem 1rem;padding:0;list-style:none}
</style>`;

/** The theme (unknown names fall back to `classic`) and the accent: a valid override wins. */
export const themeOf = (
  themeName: string,
  accentColorOverride: string | null,
): { name: string; accentColor: string } => {
  const theme = BROCHURE_THEMES.find((candidate) => candidate.name === themeName) ?? BROCHURE_THEMES[0];
  const accentColor =
    accentColorOverride !== null && ACCENT.test(accentColorOverride)
      ? accentColorOverride
      : theme.accentColor;
  return { name: theme.name, accentColor };
};

/** An https URL as given, or null (nothing else is loaded or linked from the page). */
export const httpsUrl = (value: unknown): string | null => {
  if (typeof value !== 'string') return null;
  try {
    return new URL(value).protocol === 'https:' ? value : null;
  } catch {
    return null;
  }
};

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim().length > 0 ? value : null;

const finite = (value: unknown): number | null => {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};

/** Built once: a formatter costs more to make than to use (about 40 numbers a page). */
const NUMBER_FORMAT = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 2 });
const formatNumber = (n: number): string => NUMBER_FORMAT.format(n);

function renderAgent(agent: PageAgent | null): string {
  if (!agent) return '';
  const name = [agent.firstName, agent.lastName].filter((part) => text(part) !== null).join(' ');
  if (!name) return '';
  const avatar = httpsUrl(agent.avatarUrl);
  const lines = [`<p class="agent-name"><strong>${escapeHtml(name)}</strong></p>`];
  if (text(agent.title)) lines.push(`<p class="agent-title">${escapeHtml(agent.title!)}</p>`);
  if (text(agent.displayEmail)) {
    const email = escapeHtml(agent.displayEmail!);
    lines.push(`<p class="agent-email"><a href="mailto:${email}">${email}</a></p>`);
  }
  if (text(agent.phoneNumber)) {
    const dial = agent.phoneNumber!.replace(/[^+0-9]/g, '');
    lines.push(
      `<p class="agent-phone"><a href="tel:${escapeHtml(dial)}">${escapeHtml(agent.phoneNumber!)}</a></p>`,
    );
  }
  return `<section class="agent">
${avatar ? `<img src="${escapeHtml(avatar)}" alt="">` : ''}
<div>
${lines.join('\n')}
</div>
</section>`;
}

function renderPrice(snapshot: Record<string, unknown>): string {
  const price = finite(snapshot.price);
  if (price === null) return '';
  const currency = text(snapshot.currency) ?? '';
  const period = text(snapshot.rentPeriod);
  return `<p class="price">${escapeHtml(`${formatNumber(price)} ${currency}`.trim())}${
    period ? ` / ${escapeHtml(period)}` : ''
  }</p>`;
}

function renderFacts(snapshot: Record<string, unknown>): string {
  const facts: string[] = [];
  const type = text(snapshot.propertyType);
  if (type) facts.push(TYPE_LABELS[type] ?? type);
  const operation = text(snapshot.operation);
  if (operation)
    facts.push(operation === 'rent' ? 'For rent' : operation === 'sale' ? 'For sale' : operation);
  const bedrooms = finite(snapshot.bedrooms);
  if (bedrooms !== null) facts.push(`${formatNumber(bedrooms)} bedrooms`);
  const bathrooms = finite(snapshot.bathrooms);
  if (bathrooms !== null) facts.push(`${formatNumber(bathrooms)} bathrooms`);
  const area = finite(snapshot.livingArea);
  if (area !== null) facts.push(`${formatNumber(area)} ${snapshot.areaUnit === 'sqft' ? 'ft²' : 'm²'}`);
  if (facts.length === 0) return '';
  return `<ul class="facts">${facts.map((fact) => `<li>${escapeHtml(fact)}</li>`).join('')}</ul>`;
}

/** City and area always (with `showLocations`); the street unless `address` is hidden; the map unless `coordinates` is. */
function renderLocation(snapshot: Record<string, unknown>, hidden: ReadonlySet<HiddenField>): string {
  const parts: string[] = [];
  const place = [snapshot.community, snapshot.city, snapshot.region, snapshot.countryCode]
    .map(text)
    .filter((part): part is string => part !== null);
  if (!hidden.has('address')) {
    const street = [snapshot.addressLine1, snapshot.addressLine2, snapshot.postalCode]
      .map(text)
      .filter((part): part is string => part !== null);
    if (street.length > 0) parts.push(`<span class="address">${escapeHtml(street.join(', '))}</span>`);
  }
  if (place.length > 0) parts.push(`<span class="place">${escapeHtml(place.join(', '))}</span>`);
  if (!hidden.has('coordinates')) {
    const coordinates = snapshot.coordinates as { lat?: unknown; lon?: unknown } | null | undefined;
    const lat = finite(coordinates?.lat);
    const lon = finite(coordinates?.lon);
    if (lat !== null && lon !== null && Math.abs(lat) <= 90 && Math.abs(lon) <= 180) {
      const href = `https://www.openstreetmap.org/?mlat=${lat}&amp;mlon=${lon}#map=16/${lat}/${lon}`;
      parts.push(`<a class="map" href="${href}" rel="nofollow noopener noreferrer">Map</a>`);
    }
  }
  return parts.length === 0 ? '' : `<p class="location">${parts.join(' · ')}</p>`;
}

function renderImages(snapshot: Record<string, unknown>, title: string): string {
  const images = Array.isArray(snapshot.images) ? (snapshot.images as unknown[]) : [];
  const tags = images.flatMap((image) => {
    const entry = (image ?? {}) as { url?: unknown; caption?: unknown };
    const url = httpsUrl(entry.url);
    if (!url) return [];
    const alt = text(entry.caption) ?? title;
    return [`<img src="${escapeHtml(url)}" alt="${escapeHtml(alt)}" loading="lazy">`];
  });
  return tags.length === 0 ? '' : `<div class="images">${tags.join('')}</div>`;
}

/** One listing copy: its edits applied, hidden fields left out, locations only with `showLocations`. */
export function renderListing(listing: PageListing, showLocations: boolean): string {
  const { snapshot, edits } = listing;
  const hidden = new Set<HiddenField>(edits.hiddenFields ?? []);
  const title = text(edits.title) ?? text(snapshot.title) ?? 'Property';
  const parts = [`<h2>${escapeHtml(title)}</h2>`, renderImages(snapshot, title)];
  if (!hidden.has('price')) parts.push(renderPrice(snapshot));
  parts.push(renderFacts(snapshot));
  if (showLocations) parts.push(renderLocation(snapshot, hidden));
  const description = text(snapshot.description);
  if (!hidden.has('description') && description) {
    parts.push(`<p class="description">${escapeHtml(description)}</p>`);
  }
  const features = Array.isArray(snapshot.features) ? snapshot.features.filter((f) => text(f) !== null) : [];
  if (!hidden.has('features') && features.length > 0) {
    parts.push(
      `<ul class="features">${features
        .map((slug) => `<li>${escapeHtml(FEATURE_LABELS.get(slug as string) ?? (slug as string))}</li>`)
        .join('')}</ul>`,
    );
  }
  return `<li class="listing">\n${parts.filter((part) => part !== '').join('\n')}\n</li>`;
}

/**
 * The whole public page of a brochure (INTERFACES.md "Brochures and network"): the theme and its
 * accent, the escaped title, recipient name and note, the agent card, then the listings in order.
 * Every text is escaped; only https images load; links are mailto, tel or an https map.
 */
export function renderBrochurePage(
  brochure: PageBrochure,
  listings: readonly PageListing[],
  agent: PageAgent | null,
): string {
  const theme = themeOf(brochure.themeName, brochure.accentColorOverride);
  const header = [`<h1>${escapeHtml(brochure.title)}</h1>`];
  if (text(brochure.recipientName)) {
    header.push(`<p class="recipient">Prepared for ${escapeHtml(brochure.recipientName!)}</p>`);
  }
  if (text(brochure.recipientNote)) {
    header.push(`<p class="note">${escapeHtml(brochure.recipientNote!)}</p>`);
  }
  const body = `${STYLE}
<div class="brochure theme-${theme.name}" style="--accent:${theme.accentColor};${THEME_CSS[theme.name] ?? ''}">
<header>
${header.join('\n')}
</header>
${renderAgent(agent)}
<ol class="listings">
${listings.map((listing) => renderListing(listing, brochure.showLocations)).join('\n')}
</ol>
<footer><p class="expiry">This page is available until ${brochure.expiresAt.toISOString().slice(0, 10)}.</p></footer>
</div>`;
  return htmlPage(brochure.title, body);
}
