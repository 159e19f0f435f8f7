import { ApiProperty } from '@nestjs/swagger';
import { LeadView, type LeadJson } from '@app/crm';
import type { ListResult } from '@app/platform';
import type { Offer, OfferStatus } from '../domain/offer.entity';
import { OFFER_TRIGGERS, type OfferTrigger, type QueueOffer } from '../domain/queue-definition';
import { QueueOfferView } from './queue.view';

/** An offer (INTERFACES.md "Queues" → Offers). */
export interface OfferJson {
  id: string;
  leadId: number;
  queueId: string;
  ruleId: string;
  when: OfferTrigger;
  offer: QueueOffer;
  status: OfferStatus;
  sentence: string;
  createdAt: string;
  decidedAt: string | null;
  decidedBy: string | null;
}

export const toOfferJson = (offer: Offer): OfferJson => ({
  id: offer.id,
  leadId: Number(offer.leadId),
  queueId: offer.queueId,
  ruleId: offer.ruleId,
  when: offer.when,
  offer: offer.offer,
  status: offer.status,
  sentence: offer.sentence,
  createdAt: offer.createdAt.toISOString(),
  decidedAt: offer.decidedAt?.toISOString() ?? null,
  decidedBy: offer.decidedBy,
});

export interface OfferAnswerJson {
  offer: OfferJson;
}

export interface OfferWithLeadJson extends OfferAnswerJson {
  lead: LeadJson;
}

export class OfferView implements OfferJson {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: 'integer', format: 'int64' }) leadId: number;
  @ApiProperty({ format: 'uuid', description: 'The queue whose rule made it.' }) queueId: string;
  @ApiProperty({ example: 'rule-1', description: "The rule's id in that queue." }) ruleId: string;
  @ApiProperty({ enum: OFFER_TRIGGERS }) when: OfferTrigger;
  @ApiProperty({ type: QueueOfferView }) offer: QueueOffer;
  @ApiProperty({ enum: ['open', 'accepted', 'dismissed'] }) status: OfferStatus;
  @ApiProperty({ example: 'Set status to potential', description: 'The offer as a human sentence.' })
  sentence: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) decidedAt: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'Who accepted or dismissed it.' })
  decidedBy: string | null;
}

export class OfferListView implements ListResult<OfferJson> {
  @ApiProperty({
    type: [OfferView],
    description: 'Open offers and those decided in the last 7 days, newest first.',
  })
  data: OfferJson[];
  @ApiProperty({ description: 'More offers than the 100 listed.' }) hasMore: boolean;
}

export class OfferAnswerView implements OfferAnswerJson {
  @ApiProperty({ type: OfferView }) offer: OfferJson;
}

export class OfferWithLeadView implements OfferWithLeadJson {
  @ApiProperty({ type: OfferView }) offer: OfferJson;
  @ApiProperty({ type: LeadView, description: 'The lead after the change.' }) lead: LeadJson;
}
