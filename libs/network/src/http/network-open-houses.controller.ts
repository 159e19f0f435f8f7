import { Body, Controller, HttpCode, Param, Patch, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ApiConflictError,
  ApiForbiddenError,
  ApiJsonBodyErrors,
  ApiNoBodyError,
  ApiNotFoundError,
  CurrentPrincipal,
  Principal,
  Session,
  UuidParam,
} from '@app/platform';
import { OpenHousesService } from '../application/open-houses.service';
import { OpenHouseView } from '../views/open-house.view';
import { ChangeOpenHouseDto, CreateOpenHouseDto, RsvpDto } from './dto/open-houses.dto';

const FIELDS_CHECKED =
  'VALIDATION_FAILED also for a `propertyListingId` that is not an ACTIVE listing of your agency, ' +
  '`endsAt` not after `startsAt` or more than 12 h later, an unknown `timezone`, or a `hostUserId` ' +
  'who is not a member of your agency.';
const AGENT_OR_ADMIN = "FORBIDDEN: the caller is neither the listing's agent nor an admin.";
const OWN_NOT_FOUND = 'when it is absent or of another agency';

@ApiTags('dashboard: network')
@Controller('network/open-houses')
export class NetworkOpenHousesController {
  constructor(private readonly openHouses: OpenHousesService) {}

  @Post()
  @ApiOperation({
    summary: 'Announce an open house',
    description:
      'The listing’s agent or an admin, on an ACTIVE listing of the agency; `scheduled` until it is ' +
      'cancelled or `endsAt` passes (`ended`). `visibility` `network` shows it to other agencies. On ' +
      'the host’s calendar (`open_house`), blocking their free times.',
  })
  @Session()
  @ApiCreatedResponse({ type: OpenHouseView })
  @ApiJsonBodyErrors(FIELDS_CHECKED)
  @ApiForbiddenError(AGENT_OR_ADMIN)
  create(@CurrentPrincipal() actor: Principal, @Body() body: CreateOpenHouseDto) {
    return this.openHouses.create(actor, body);
  }

  @Patch(':openHouseId')
  @ApiOperation({
    summary: 'Change an open house',
    description: 'The listing’s agent or an admin; any create field. A cancelled or ended one → 409.',
  })
  @Session()
  @ApiOkResponse({ type: OpenHouseView })
  @ApiJsonBodyErrors(FIELDS_CHECKED)
  @ApiForbiddenError(AGENT_OR_ADMIN)
  @ApiNotFoundError('Open house', OWN_NOT_FOUND)
  @ApiConflictError('CONFLICT: the open house is cancelled or has ended.')
  change(
    @CurrentPrincipal() actor: Principal,
    @Param('openHouseId', UuidParam) openHouseId: string,
    @Body() body: ChangeOpenHouseDto,
  ) {
    return this.openHouses.change(actor, openHouseId, body);
  }

  @Post(':openHouseId/cancel')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Cancel an open house',
    description: 'The listing’s agent or an admin; `status` `cancelled` (again: unchanged). Ended → 409.',
  })
  @Session()
  @ApiOkResponse({ type: OpenHouseView })
  @ApiNoBodyError()
  @ApiForbiddenError(AGENT_OR_ADMIN)
  @ApiNotFoundError('Open house', OWN_NOT_FOUND)
  @ApiConflictError('CONFLICT: the open house has ended.')
  cancel(@CurrentPrincipal() actor: Principal, @Param('openHouseId', UuidParam) openHouseId: string) {
    return this.openHouses.cancel(actor, openHouseId);
  }

  @Put(':openHouseId/rsvp')
  @ApiOperation({
    summary: 'Answer an open house',
    description:
      'Anyone who sees it (your agency’s, or another agency’s `network` event): `going`, `maybe` or ' +
      '`not_going`, replacing your earlier answer. `going` counts toward `capacity`.',
  })
  @Session()
  @ApiOkResponse({ type: OpenHouseView })
  @ApiJsonBodyErrors()
  @ApiNotFoundError('Open house', "when it is absent or another agency's `agency`-only event")
  @ApiConflictError(
    'CONFLICT: the open house is cancelled or has ended, its `rsvpDeadline` has passed, or (for ' +
      '`going`) its `capacity` is reached.',
  )
  rsvp(
    @CurrentPrincipal() actor: Principal,
    @Param('openHouseId', UuidParam) openHouseId: string,
    @Body() body: RsvpDto,
  ) {
    return this.openHouses.rsvp(actor, openHouseId, body.status);
  }
}
