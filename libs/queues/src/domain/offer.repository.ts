import { LockMode } from '@mikro-orm/postgresql';
import { TenantRepository } from '@app/platform/core';
import type { Offer } from './offer.entity';

/** Decided offers stay listed for 7 days (INTERFACES.md "Queues" → Offers). */
export const DECIDED_OFFERS_SHOWN_MS = 7 * 24 * 60 * 60 * 1000;

export class OfferRepository extends TenantRepository<Offer> {
  /** A lead's open offers and those decided since `decidedSince`, newest first; `limit` rows. */
  listForLead(organizationId: string, leadId: number, decidedSince: Date, limit: number): Promise<Offer[]> {
    return this.find(
      {
        organizationId,
        leadId,
        $or: [{ status: 'open' }, { decidedAt: { $gte: decidedSince } }],
      },
      { orderBy: { createdAt: 'desc', id: 'desc' }, limit },
    );
  }

  /** Takes the offer's row lock for the decision (one decision wins). */
  lockedInOrg(organizationId: string, offerId: string): Promise<Offer | null> {
    return this.findOne({ organizationId, id: offerId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  }

  /**
   * Remembers the lead's `changed_at` (stamped by the database on every write of the lead row,
   * to the microsecond) as the accept left it. Run after the accept's writes are flushed.
   */
  async rememberLeadChange(offer: Offer): Promise<void> {
    await this.getEntityManager().execute(
      `update offers o set lead_changed_at = l.changed_at from leads l where l.id = o.lead_id and o.id = ?`,
      [offer.id],
    );
  }

  /** No write of the lead since the accept. */
  async leadUnchangedSince(offer: Offer): Promise<boolean> {
    const [row] = await this.getEntityManager().execute<{ unchanged: boolean }[]>(
      `select coalesce(l.changed_at = o.lead_changed_at, false) as unchanged
         from offers o join leads l on l.id = o.lead_id where o.id = ?`,
      [offer.id],
    );
    return row?.unchanged ?? false;
  }

  /** Another open offer of the same lead, queue and rule (made while this one was accepted) goes. */
  async removeOtherOpen(offer: Offer): Promise<void> {
    await this.getEntityManager().execute(
      `delete from offers where lead_id = ? and queue_id = ? and rule_id = ? and status = 'open' and id <> ?`,
      [offer.leadId, offer.queueId, offer.ruleId, offer.id],
    );
  }
}
