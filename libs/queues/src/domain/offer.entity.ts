import { BigIntType, Entity, EntityRepositoryType, PrimaryKey, Property } from '@mikro-orm/core';
import { conflict } from '@app/platform/core';
import type { OfferTrigger, QueueOffer } from './queue-definition';
import { OfferRepository } from './offer.repository';

export type OfferStatus = 'open' | 'accepted' | 'dismissed';

/** The lead as it was before an accepted offer changed it: what an undo puts back. */
export interface OfferPrevious {
  crmStatus: string;
  tagIds: string[];
  assigneeIds: string[];
}

/** An accepted offer can be undone for 24 hours (INTERFACES.md "Queues" → Offers). */
export const UNDO_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * An offer (INTERFACES.md "Queues" → Offers): what one rule of a queue proposes for a lead,
 * made by a trigger (`offerTriggerStatement`, never through this class), then accepted or
 * dismissed once; an accepted one can be undone within 24 h while the lead has not changed since
 * (the lead's `changed_at`, kept in `lead_changed_at` by the repository), which opens it again. The rules of deciding live here; applying it to the lead is the CRM's.
 */
@Entity({ tableName: 'offers', repository: () => OfferRepository })
export class Offer {
  [EntityRepositoryType]?: OfferRepository;

  @PrimaryKey({ type: 'uuid' })
  id!: string;

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: new BigIntType('number') })
  leadId!: number;

  @Property({ type: 'uuid' })
  queueId!: string;

  @Property({ type: 'text' })
  ruleId!: string;

  @Property({ type: 'text', fieldName: 'when' })
  when!: OfferTrigger;

  @Property({ type: 'json' })
  offer!: QueueOffer;

  @Property({ type: 'text' })
  status: OfferStatus = 'open';

  @Property({ type: 'text' })
  sentence!: string;

  @Property({ type: 'datetime' })
  createdAt!: Date;

  @Property({ type: 'datetime', nullable: true })
  decidedAt: Date | null = null;

  @Property({ type: 'uuid', nullable: true })
  decidedBy: string | null = null;

  @Property({ type: 'json', nullable: true })
  previous: OfferPrevious | null = null;

  @Property({ type: 'uuid', nullable: true })
  followUpTaskId: string | null = null;

  /** Accept or dismiss: only an open offer (409 CONFLICT otherwise). */
  refuseUnlessOpen(): void {
    if (this.status !== 'open') throw conflict(`This offer was ${this.status} already.`);
  }

  accepted(by: string, now: Date, after: { previous: OfferPrevious; followUpTaskId: string | null }): void {
    this.refuseUnlessOpen();
    this.status = 'accepted';
    this.decidedAt = now;
    this.decidedBy = by;
    this.previous = after.previous;
    this.followUpTaskId = after.followUpTaskId;
  }

  dismissed(by: string, now: Date): void {
    this.refuseUnlessOpen();
    this.status = 'dismissed';
    this.decidedAt = now;
    this.decidedBy = by;
  }

  /**
   * 409 CONFLICT unless accepted, within 24 h of the accept, and the lead unchanged since (its row
   * not written after the accept: `OfferRepository.leadUnchangedSince`).
   */
  refuseUndo(leadUnchanged: boolean, now: Date): void {
    if (this.status !== 'accepted' || !this.decidedAt || !this.previous) {
      throw conflict('Only an accepted offer can be undone.');
    }
    if (now.getTime() - this.decidedAt.getTime() > UNDO_WINDOW_MS) {
      throw conflict('An offer can be undone only within 24 hours of accepting it.');
    }
    if (!leadUnchanged) {
      throw conflict('The lead changed since the offer was accepted; it cannot be undone.');
    }
  }

  /** Open again, as if never decided. */
  undone(): void {
    this.status = 'open';
    this.decidedAt = null;
    this.decidedBy = null;
    this.previous = null;
    this.followUpTaskId = null;
  }
}
