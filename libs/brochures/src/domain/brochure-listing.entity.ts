import { Entity, EntityRepositoryType, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';
import { BrochureListingRepository } from './brochure-listing.repository';

export const HIDDEN_FIELDS = ['price', 'address', 'coordinates', 'description', 'features'] as const;
export type HiddenField = (typeof HIDDEN_FIELDS)[number];

/** The edits a refresh keeps (`PATCH /v1/brochures/{id}/listings/{listingId}`). */
export interface BrochureListingEdits {
  title?: string;
  hiddenFields?: HiddenField[];
}

/**
 * A listing's copy in a brochure: the record as read through `ListingSources` (never
 * `commission`), at `position` (zero-based), with the edits a refresh keeps.
 */
@Entity({ tableName: 'brochure_listings', repository: () => BrochureListingRepository })
export class BrochureListing {
  [EntityRepositoryType]?: BrochureListingRepository;

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid' })
  brochureId: string;

  @Property({ type: 'uuid' })
  organizationId: string;

  @Property({ type: 'integer' })
  position: number;

  @Property({ type: 'text' })
  source: string;

  @Property({ type: 'text' })
  sourceId: string;

  @Property({ type: 'text', nullable: true })
  country: string | null = null;

  @Property({ type: 'json' })
  snapshot: Record<string, unknown>;

  @Property({ type: 'json' })
  edits: BrochureListingEdits = {};

  @Property({ type: 'datetime' })
  refreshedAt: Date;

  @Property({ type: 'datetime' })
  createdAt: Date;

  constructor(
    props: {
      brochureId: string;
      organizationId: string;
      position: number;
      source: string;
      sourceId: string;
      country: string | null;
      snapshot: Record<string, unknown>;
    },
    now: Date,
  ) {
    this.brochureId = props.brochureId;
    this.organizationId = props.organizationId;
    this.position = props.position;
    this.source = props.source;
    this.sourceId = props.sourceId;
    this.country = props.country;
    this.snapshot = props.snapshot;
    this.refreshedAt = now;
    this.createdAt = now;
  }

  /** The edits sent (`title: null` drops the title edit); a refresh keeps them. */
  edit(edits: { title?: string | null; hiddenFields?: HiddenField[] }): void {
    const next: BrochureListingEdits = { ...this.edits };
    if (edits.title === null) delete next.title;
    else if (edits.title !== undefined) next.title = edits.title;
    if (edits.hiddenFields !== undefined) next.hiddenFields = [...new Set(edits.hiddenFields)];
    this.edits = next;
  }

  /** A new copy of the listing; the edits stay. */
  refresh(snapshot: Record<string, unknown>, now: Date): void {
    this.snapshot = snapshot;
    this.refreshedAt = now;
  }

  moveTo(position: number): void {
    this.position = position;
  }

  /** The copy stored for a listing record: everything but `commission`. */
  static snapshotOf(record: Record<string, unknown>): Record<string, unknown> {
    const { commission: _commission, ...snapshot } = record;
    return snapshot;
  }
}
