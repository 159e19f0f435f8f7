import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ApiBadRequestErrors,
  ApiForbiddenError,
  ApiJsonBodyErrors,
  ApiNotFoundError,
  CurrentPrincipal,
  Principal,
  Session,
  UuidParam,
} from '@app/platform';
import { BuyerRequestsService } from '../application/buyer-requests.service';
import { BUYER_REQUEST_CLOSER } from '../domain/buyer-request';
import { BuyerRequestView } from '../views/buyer-request.view';
import { CreateBuyerRequestDto } from './dto/buyer-request.dto';

@ApiTags('dashboard: network')
@Controller('network/buyer-requests')
export class NetworkBuyerRequestsController {
  constructor(private readonly requests: BuyerRequestsService) {}

  @Post()
  @ApiOperation({
    summary: 'Post a buyer request to the network',
    description:
      'What a buyer looks for; other agencies see it (as `summary` only) when it fits one of their network ' +
      'listings, for 90 days or until closed. `leadId` must be a lead the caller reaches; the lead and the notes ' +
      'are never shown to anyone.',
  })
  @Session()
  @ApiCreatedResponse({ type: BuyerRequestView })
  @ApiJsonBodyErrors()
  @ApiNotFoundError('Lead', 'when `leadId` is absent or out of the caller’s reach')
  create(@CurrentPrincipal() actor: Principal, @Body() body: CreateBuyerRequestDto) {
    return this.requests.create(actor, body);
  }

  @Post(':requestId/close')
  @ApiOperation({
    summary: 'Close a buyer request',
    description: 'Its creator or an admin; it is `closed` from then on (closing again changes nothing).',
  })
  @HttpCode(200)
  @Session()
  @ApiOkResponse({ type: BuyerRequestView })
  @ApiBadRequestErrors()
  @ApiForbiddenError(`FORBIDDEN: \`${BUYER_REQUEST_CLOSER}\``)
  @ApiNotFoundError('Buyer request', 'when it is absent or another agency’s')
  close(@CurrentPrincipal() actor: Principal, @Param('requestId', UuidParam) requestId: string) {
    return this.requests.close(actor, requestId);
  }
}
