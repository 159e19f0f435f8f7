import { Body, Controller, Delete, HttpCode, Param, Patch, Post, Put } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import {
  ApiBadRequestErrors,
  ApiConflictError,
  ApiErrorResponse,
  ApiJsonBodyErrors,
  ApiNotFoundError,
  CurrentPrincipal,
  Principal,
  Session,
  UuidParam,
} from '@app/platform';
import { CollectionsService } from '../application/collections.service';
import { COLLECTION_DUPLICATE, COLLECTION_FULL } from '../domain/collection';
import { CollectionItemView, CollectionView } from '../views/collection.view';
import { AddCollectionItemDto, CollectionMembersDto, CollectionNameDto } from './dto/collection.dto';

const NOT_A_MEMBER = 'when it is absent, another agency’s, or the caller is not one of its members';

@ApiTags('dashboard: network')
@Controller('network/collections')
export class NetworkCollectionsController {
  constructor(private readonly collections: CollectionsService) {}

  @Post()
  @ApiOperation({
    summary: 'Create a collection',
    description:
      'A named, empty collection of homes; its creator is its first member (and always stays one).',
  })
  @Session()
  @ApiCreatedResponse({ type: CollectionView })
  @ApiJsonBodyErrors()
  create(@CurrentPrincipal() actor: Principal, @Body() body: CollectionNameDto) {
    return this.collections.create(actor, body.name);
  }

  @Patch(':collectionId')
  @ApiOperation({ summary: 'Rename a collection', description: 'Any of its members; bumps `updatedAt`.' })
  @Session()
  @ApiOkResponse({ type: CollectionView })
  @ApiJsonBodyErrors()
  @ApiNotFoundError('Collection', NOT_A_MEMBER)
  rename(
    @CurrentPrincipal() actor: Principal,
    @Param('collectionId', UuidParam) collectionId: string,
    @Body() body: CollectionNameDto,
  ) {
    return this.collections.rename(actor, collectionId, body.name);
  }

  @Delete(':collectionId')
  @ApiOperation({
    summary: 'Delete a collection',
    description: 'Any of its members; its items and members go with it.',
  })
  @HttpCode(204)
  @Session()
  @ApiNoContentResponse({ description: 'The collection is gone.' })
  @ApiBadRequestErrors()
  @ApiNotFoundError('Collection', NOT_A_MEMBER)
  async delete(@CurrentPrincipal() actor: Principal, @Param('collectionId', UuidParam) collectionId: string) {
    await this.collections.delete(actor, collectionId);
  }

  @Post(':collectionId/items')
  @ApiOperation({
    summary: 'Add a home to a collection',
    description:
      'The home `{source, id, country?}` (as property search gives it) is read once, now, through the listing ' +
      'sources (a portal read counts toward the daily allowance, reserved before anything is written) and a small ' +
      'copy kept: title, price, currency, city, main image. At most 200 homes; the same home twice → 409.',
  })
  @Session()
  @ApiCreatedResponse({ type: CollectionItemView })
  @ApiJsonBodyErrors(
    'VALIDATION_FAILED also when the home cannot be read: an unknown `source`, a portal home without one of its ' +
      'countries, or no readable home with this `id`.',
  )
  @ApiNotFoundError('Collection', NOT_A_MEMBER)
  @ApiConflictError(`CONFLICT: \`${COLLECTION_DUPLICATE}\` or \`${COLLECTION_FULL}\``)
  @ApiErrorResponse(
    429,
    'DAILY_LIMIT_REACHED: the agency’s daily portal allowance is spent; nothing was added',
  )
  addItem(
    @CurrentPrincipal() actor: Principal,
    @Param('collectionId', UuidParam) collectionId: string,
    @Body() body: AddCollectionItemDto,
  ) {
    return this.collections.addItem(actor, collectionId, body);
  }

  @Delete(':collectionId/items/:itemId')
  @ApiOperation({
    summary: 'Remove a home from a collection',
    description: 'Any of its members; bumps `updatedAt`.',
  })
  @HttpCode(204)
  @Session()
  @ApiNoContentResponse({ description: 'The item is gone.' })
  @ApiBadRequestErrors()
  @ApiNotFoundError('Collection', `${NOT_A_MEMBER}; \`Collection item not found.\` for an item not in it`)
  async removeItem(
    @CurrentPrincipal() actor: Principal,
    @Param('collectionId', UuidParam) collectionId: string,
    @Param('itemId', UuidParam) itemId: string,
  ) {
    await this.collections.removeItem(actor, collectionId, itemId);
  }

  @Put(':collectionId/members')
  @ApiOperation({
    summary: 'Set the members of a collection',
    description:
      'Any of its members; `userIds` (at most 100, people of the caller’s organization) replace the members. ' +
      'The creator always stays.',
  })
  @Session()
  @ApiOkResponse({ type: CollectionView })
  @ApiJsonBodyErrors('VALIDATION_FAILED also at `userIds[i]` for someone not of the caller’s organization.')
  @ApiNotFoundError('Collection', NOT_A_MEMBER)
  setMembers(
    @CurrentPrincipal() actor: Principal,
    @Param('collectionId', UuidParam) collectionId: string,
    @Body() body: CollectionMembersDto,
  ) {
    return this.collections.setMembers(actor, collectionId, body.userIds);
  }
}
