import { BigIntType, Entity, EntityRepositoryType, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';
import { LeadInquiryRepository } from './lead-inquiry.repository';

/** A listing as property search names it: `{source, id, country?}`. */
export interface ListingRef {
  source: string;
  id: string;
  country?: string;
}

/**
 * One lead intake: where the person came from and what they wrote (customer-written, so shown
 * as untrusted). The timeline's `inquiry` entries.
 */
@Entity({ tableName: 'lead_inquiries', repository: () => LeadInquiryRepository })
export class LeadInquiry {
  [EntityRepositoryType]?: LeadInquiryRepository;

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid' })
  organizationId: string;

  @Property({ type: new BigIntType('number') })
  leadId: number;

  @Property({ type: 'text' })
  origin: string;

  @Property({ type: 'text', nullable: true })
  message: string | null;

  @Property({ type: 'json', nullable: true })
  listing: ListingRef | null;

  /** `integration:<keyId>`: the connector's key that sent it. */
  @Property({ type: 'text' })
  actor: string;

  @Property({ type: 'datetime' })
  occurredAt: Date;

  constructor(
    props: {
      organizationId: string;
      leadId: number;
      origin: string;
      message: string | null;
      listing: ListingRef | null;
      actor: string;
    },
    now: Date,
  ) {
    Object.assign(this, props);
    this.occurredAt = now;
  }
}
