import { ApiProperty } from '@nestjs/swagger';
import type { ListResult } from '@app/platform';
import {
  BUYER_REQUEST_LIMITS,
  BUYER_REQUEST_STATUSES,
  type BuyerRequestStatus,
} from '../domain/buyer-request';

/** A buyer request as anyone sees it (spec "Buyer request"): never notes, lead, names or contacts. */
export interface BuyerRequestJson {
  id: string;
  summary: string;
  status: BuyerRequestStatus;
  createdAt: string;
}

export class BuyerRequestView implements BuyerRequestJson {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({
    example: 'Buying: apartment or penthouse in Marbella, Estepona · up to EUR 450,000 · 2+ bedrooms',
    description:
      'Made from the structured fields only: never the notes, the lead, a name or contact details.',
  })
  summary: string;
  @ApiProperty({
    enum: BUYER_REQUEST_STATUSES,
    description: `\`expired\` ${BUYER_REQUEST_LIMITS.lifetimeDays} days after creation.`,
  })
  status: BuyerRequestStatus;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class BuyerRequestListView implements ListResult<BuyerRequestJson> {
  @ApiProperty({
    type: [BuyerRequestView],
    description: `At most ${BUYER_REQUEST_LIMITS.list}, newest first.`,
  })
  data: BuyerRequestView[];
  @ApiProperty({ description: 'More requests exist than the list shows.' }) hasMore: boolean;
}
