import { ApiProperty } from '@nestjs/swagger';

export const PUBLICATION_STATUSES = ['pending', 'published', 'simulated', 'failed', 'unpublished'] as const;
export type PublicationStatus = (typeof PUBLICATION_STATUSES)[number];

/** A listing on one portal (INTERFACES.md "Listings", `/properties/{id}/publications`). */
export interface PublicationJson {
  portal: string;
  status: PublicationStatus;
  externalId: string | null;
  /** ISO 8601. */
  publishedAt: string | null;
  lastError: string | null;
}

/** A `listing_publications` row as read by SQL (timestamps come back as PostgreSQL text). */
export interface PublicationRow {
  portal: string;
  status: PublicationStatus;
  external_id: string | null;
  published_at: string | Date | null;
  last_error: string | null;
}

export const toPublicationJson = (row: PublicationRow): PublicationJson => ({
  portal: row.portal,
  status: row.status,
  externalId: row.external_id,
  publishedAt: row.published_at === null ? null : new Date(row.published_at).toISOString(),
  lastError: row.last_error,
});

export class PublicationView implements PublicationJson {
  @ApiProperty({ example: 'demoportal', description: 'A portal of `GET /property-sources` (kind `portal`).' })
  portal: string;

  @ApiProperty({
    enum: PUBLICATION_STATUSES,
    description:
      '`pending`: waiting for the sender (a publish when enabled, an unpublish when not); `published`: ' +
      'live on the portal; `simulated`: what `published` would be, on a portal that is sample data ' +
      '(`simulated` in `GET /property-sources`, `demoportal`): nothing was sent and no one sees it; ' +
      '`failed`: the last attempt failed (`lastError`), retried after 1, 5 and 30 minutes, given up ' +
      'after 5 attempts; `unpublished`: off the portal.',
  })
  status: PublicationStatus;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The listing’s id on the portal once published (made up by a `simulated` portal).',
  })
  externalId: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the portal took it (for `simulated`: when the sender went through the motions).',
  })
  publishedAt: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Why the last attempt failed, in short.' })
  lastError: string | null;
}

export class PublicationListView {
  @ApiProperty({
    type: [PublicationView],
    description: 'One row per portal the listing was ever enabled on, by portal name.',
  })
  data: PublicationView[];
}
