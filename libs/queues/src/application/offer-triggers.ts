import { LeadEventListenerProvider, type LeadEvent, type LeadEventListener } from '@app/crm';
import { OfferGenerator } from './offer-generator';

/** The CRM's lead events (`call_ended`, `task_completed`) make offers; the CRM never imports this. */
@LeadEventListenerProvider()
export class OfferTriggers implements LeadEventListener {
  constructor(private readonly offers: OfferGenerator) {}

  async onLeadEvent(event: LeadEvent): Promise<void> {
    await this.offers.onLeadEvent(event);
  }
}
