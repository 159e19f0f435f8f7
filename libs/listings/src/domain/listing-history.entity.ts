import { Entity, EntityRepositoryType, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';
import { ListingHistoryRepository } from './listing-history.repository';

/** A change to a listing (spec "History records"): `source` is `apikey:<keyId>` through `/properties`. */
@Entity({ tableName: 'listing_history', repository: () => ListingHistoryRepository })
export class ListingHistory {
  [EntityRepositoryType]?: ListingHistoryRepository;

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid' })
  organizationId: string;

  @Property({ type: 'uuid' })
  listingId: string;

  @Property({ type: 'datetime' })
  at: Date;

  @Property({ type: 'text' })
  source: string;

  @Property({ type: 'uuid', nullable: true })
  changedBy: string | null;

  @Property({ type: 'text[]' })
  changedFields: string[];

  constructor(
    props: {
      organizationId: string;
      listingId: string;
      source: string;
      changedBy: string | null;
      changedFields: string[];
    },
    at: Date,
  ) {
    this.organizationId = props.organizationId;
    this.listingId = props.listingId;
    this.source = props.source;
    this.changedBy = props.changedBy;
    this.changedFields = props.changedFields;
    this.at = at;
  }
}
