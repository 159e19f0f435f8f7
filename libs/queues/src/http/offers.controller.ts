import { applyDecorators, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ApiBadRequestErrors,
  ApiConflictError,
  ApiForbiddenError,
  ApiNotFoundError,
  CurrentPrincipal,
  IntParam,
  Principal,
  RequireScopes,
  RequiresPlan,
  UuidParam,
} from '@app/platform';
import { OFFERS_LISTED, OffersService } from '../application/offers.service';
import { OfferAnswerView, OfferListView, OfferWithLeadView } from '../views/offer.view';

/** INTERFACES.md "Queues" → Offers: the list needs crm:read; decisions crm:write and an active plan. */
const OfferRead = () => RequireScopes('crm:read');
const OfferWrite = () => applyDecorators(RequireScopes('crm:write'), RequiresPlan());

const NO_BODY = 'BAD_REQUEST: `This route takes no body.` (any body, `{}` included).';
const OFFER_REACH = "when it is absent, another agency's, or on a lead out of the caller's reach";
const DECIDED = 'CONFLICT: the offer was accepted or dismissed already.';

@ApiTags('v1: queues')
@Controller('v1')
export class OffersController {
  constructor(private readonly offers: OffersService) {}

  @Get('leads/:leadId/offers')
  @ApiOperation({
    summary: "List a lead's offers",
    description:
      'What the offer rules of the agency’s queues proposed for this lead when a call ended, a task was ' +
      `completed or time passed: open offers and those decided in the last 7 days, newest first (at most ${OFFERS_LISTED}).`,
  })
  @OfferRead()
  @ApiOkResponse({ type: OfferListView })
  @ApiBadRequestErrors()
  @ApiNotFoundError('Lead')
  list(@CurrentPrincipal() actor: Principal, @Param('leadId', IntParam) leadId: number) {
    return this.offers.list(actor, leadId);
  }

  @Post('offers/:offerId/accept')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Accept an offer',
    description:
      'Applies the offer to the lead as an API change (history source `api`): `set_status`, `add_tag`, ' +
      '`remove_tag`, `assign` (the person becomes the only owner; admins only) or `follow_up` (a date-only ' +
      'task "Call back" due today + `inDays` (UTC) for the caller). Keeps the lead’s state before, for an undo. ' +
      'Answers the offer and the lead.',
  })
  @OfferWrite()
  @ApiOkResponse({ type: OfferWithLeadView })
  @ApiBadRequestErrors(NO_BODY, 'VALIDATION_FAILED: an `add_tag` offer whose tag was deleted since.')
  @ApiForbiddenError('ORG_ADMIN_REQUIRED: a member accepting an `assign` offer.')
  @ApiNotFoundError('Offer', OFFER_REACH)
  @ApiConflictError(DECIDED)
  accept(@CurrentPrincipal() actor: Principal, @Param('offerId', UuidParam) offerId: string) {
    return this.offers.accept(actor, offerId);
  }

  @Post('offers/:offerId/dismiss')
  @HttpCode(200)
  @ApiOperation({ summary: 'Dismiss an offer', description: 'The lead is left as it is. Answers the offer.' })
  @OfferWrite()
  @ApiOkResponse({ type: OfferAnswerView })
  @ApiBadRequestErrors(NO_BODY)
  @ApiNotFoundError('Offer', OFFER_REACH)
  @ApiConflictError(DECIDED)
  dismiss(@CurrentPrincipal() actor: Principal, @Param('offerId', UuidParam) offerId: string) {
    return this.offers.dismiss(actor, offerId);
  }

  @Post('offers/:offerId/undo')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Undo an accepted offer',
    description:
      'Within 24 hours of accepting, and while the lead is as the accept left it: puts back the status, tags ' +
      'or owners the offer changed, or deletes its follow-up task, and opens the offer again. Answers the ' +
      'offer and the lead.',
  })
  @OfferWrite()
  @ApiOkResponse({ type: OfferWithLeadView })
  @ApiBadRequestErrors(NO_BODY)
  @ApiForbiddenError('ORG_ADMIN_REQUIRED: a member undoing an `assign` offer.')
  @ApiNotFoundError('Offer', OFFER_REACH)
  @ApiConflictError(
    'CONFLICT: the offer is not accepted, was accepted more than 24 hours ago, or the lead changed since.',
  )
  undo(@CurrentPrincipal() actor: Principal, @Param('offerId', UuidParam) offerId: string) {
    return this.offers.undo(actor, offerId);
  }
}
