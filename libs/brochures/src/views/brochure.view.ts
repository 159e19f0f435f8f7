import { ApiProperty } from '@nestjs/swagger';
import { ApiNullable } from '@app/platform';
import { BROCHURE_THEMES } from '@app/listings';
import { HIDDEN_FIELDS, type BrochureListing, type HiddenField } from '../domain/brochure-listing.entity';
import type { Brochure, BrochureStatus } from '../domain/brochure.entity';

const STATUSES = ['active', 'expired', 'revoked'] as const;
const THEME_NAMES = BROCHURE_THEMES.map((theme) => theme.name);

/** `{PUBLIC_BASE_URL}/b/<slug>`. */
export const publicUrlOf = (slug: string, publicBaseUrl: string): string => `${publicBaseUrl}/b/${slug}`;

/** A listing copy as the brochure routes show it (spec "Brochure listing"). */
export class BrochureListingView {
  @ApiProperty({ format: 'uuid', description: 'The brochure-listing id (edit, refresh, remove).' })
  id: string;
  @ApiProperty({ example: 'internal', description: '`internal`, a feed or a portal.' }) source: string;
  @ApiProperty({ description: 'The listing id within its source.' }) sourceId: string;
  @ApiProperty({ description: 'The edited title when there is one, else the listing’s.' }) title: string;
  @ApiNullable(String, { description: 'The listing’s own reference code.' }) ref: string | null;
  @ApiNullable(String, { example: '350000.00', description: 'Decimal string.' }) price: string | null;
  @ApiNullable(String, { example: 'EUR' }) currency: string | null;
  @ApiProperty({ description: 'Whether the copy holds exact coordinates.' }) coordinates: boolean;
  @ApiProperty({ type: 'integer', description: 'How many images the copy holds.' }) images: number;
  @ApiProperty({
    enum: HIDDEN_FIELDS,
    isArray: true,
    description: 'Fields the public page leaves out for this listing.',
  })
  hiddenFields: HiddenField[];
}

/** A brochure as lists show it (spec "Brochure", row). */
export class BrochureRowView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'villas-in-marbella-k3j9x2m4qa' }) slug: string;
  @ApiProperty({ maxLength: 255 }) title: string;
  @ApiNullable(String, { maxLength: 255 }) recipientName: string | null;
  @ApiProperty({ enum: STATUSES, description: '`expired` as soon as `expiresAt` passes.' })
  status: BrochureStatus;
  @ApiProperty({ format: 'uuid' }) creatorUserId: string;
  @ApiProperty() showLocations: boolean;
  @ApiProperty({ type: 'integer', minimum: 0, maximum: 25 }) listingCount: number;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
  @ApiProperty({ type: 'integer', minimum: 0 }) viewCount: number;
  @ApiNullable(String, { format: 'date-time' }) lastViewedAt: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'uri', example: 'https://app.example.com/b/villas-in-marbella-k3j9x2m4qa' })
  publicUrl: string;
}

/** The brochure without its listings (`PATCH /v1/brochures/{id}`). */
export class BrochureDetailView extends BrochureRowView {
  @ApiNullable(String, { maxLength: 4096 }) recipientNote: string | null;
  @ApiProperty({ enum: THEME_NAMES }) themeName: string;
  @ApiNullable(String, { example: '#1F3A5F' }) accentColorOverride: string | null;
}

/** The full brochure with its listings in order. */
export class BrochureView extends BrochureDetailView {
  @ApiProperty({ type: [BrochureListingView] }) listings: BrochureListingView[];
}

export class BrochurePageView {
  @ApiProperty({ type: [BrochureRowView] }) data: BrochureRowView[];
  @ApiProperty() hasMore: boolean;
  @ApiProperty({ type: 'integer', description: 'Every brochure the filters match.' }) total: number;
}

export class BrochureListingAnswerView {
  @ApiProperty({ format: 'uuid' }) brochureId: string;
  @ApiProperty({ type: BrochureListingView }) listing: BrochureListingView;
}

export class BrochureOrderItemView {
  @ApiProperty({ format: 'uuid' }) listingId: string;
  @ApiProperty({ type: 'integer', minimum: 0 }) position: number;
}

export class BrochureOrderView {
  @ApiProperty({ format: 'uuid' }) brochureId: string;
  @ApiProperty({ type: [BrochureOrderItemView] }) order: BrochureOrderItemView[];
}

/** `POST …/revoke`. */
export class BrochureLinkView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() slug: string;
  @ApiProperty({ format: 'uri' }) publicUrl: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
  @ApiProperty({ enum: STATUSES }) status: BrochureStatus;
}

export class FailedRefreshView {
  @ApiProperty({ format: 'uuid', description: 'The brochure-listing id; its old copy is kept.' })
  listingId: string;
  @ApiProperty({ enum: ['not_found', 'country_required', 'unknown_source'] }) reason: string;
}

/** `POST …/renew`. */
export class BrochureRenewalView extends BrochureLinkView {
  @ApiProperty({ type: [FailedRefreshView] }) failedRefreshes: FailedRefreshView[];
}

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export function toBrochureListingJson(listing: BrochureListing): BrochureListingView {
  const snapshot = listing.snapshot;
  const images = Array.isArray(snapshot.images)
    ? snapshot.images.length
    : typeof snapshot.imageCount === 'number'
      ? snapshot.imageCount
      : 0;
  const price = snapshot.price;
  return {
    id: listing.id,
    source: listing.source,
    sourceId: listing.sourceId,
    title: listing.edits.title ?? str(snapshot.title) ?? '',
    ref: str(snapshot.reference),
    price: typeof price === 'number' ? String(price) : str(price),
    currency: str(snapshot.currency),
    coordinates: snapshot.coordinates !== null && typeof snapshot.coordinates === 'object',
    images,
    hiddenFields: listing.edits.hiddenFields ?? [],
  };
}

export function toBrochureRowJson(
  brochure: Brochure,
  listingCount: number,
  now: Date,
  publicBaseUrl: string,
): BrochureRowView {
  return {
    id: brochure.id,
    slug: brochure.slug,
    title: brochure.title,
    recipientName: brochure.recipientName,
    status: brochure.statusAt(now),
    creatorUserId: brochure.creatorUserId,
    showLocations: brochure.showLocations,
    listingCount,
    expiresAt: brochure.expiresAt.toISOString(),
    viewCount: brochure.viewCount,
    lastViewedAt: brochure.lastViewedAt?.toISOString() ?? null,
    createdAt: brochure.createdAt.toISOString(),
    publicUrl: publicUrlOf(brochure.slug, publicBaseUrl),
  };
}

export function toBrochureDetailJson(
  brochure: Brochure,
  listingCount: number,
  now: Date,
  publicBaseUrl: string,
): BrochureDetailView {
  return {
    ...toBrochureRowJson(brochure, listingCount, now, publicBaseUrl),
    recipientNote: brochure.recipientNote,
    themeName: brochure.themeName,
    accentColorOverride: brochure.accentColorOverride,
  };
}

/** The full brochure; `listings` in position order. */
export function toBrochureJson(
  brochure: Brochure,
  listings: BrochureListing[],
  now: Date,
  publicBaseUrl: string,
): BrochureView {
  const ordered = [...listings].sort((a, b) => a.position - b.position);
  return {
    ...toBrochureDetailJson(brochure, ordered.length, now, publicBaseUrl),
    listings: ordered.map(toBrochureListingJson),
  };
}

export function toBrochureLinkJson(brochure: Brochure, now: Date, publicBaseUrl: string): BrochureLinkView {
  return {
    id: brochure.id,
    slug: brochure.slug,
    publicUrl: publicUrlOf(brochure.slug, publicBaseUrl),
    expiresAt: brochure.expiresAt.toISOString(),
    status: brochure.statusAt(now),
  };
}
