import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ApiBadRequestErrors,
  ApiNotFoundError,
  CurrentPrincipal,
  Principal,
  RequireScopes,
  UuidParam,
} from '@app/platform';
import { CollectionsService } from '../application/collections.service';
import { CollectionListView, CollectionView } from '../views/collection.view';

@ApiTags('v1: network')
@Controller('v1/collections')
export class CollectionsController {
  constructor(private readonly collections: CollectionsService) {}

  @Get()
  @ApiOperation({
    summary: 'List collections',
    description:
      'The 25 most recently changed collections the key’s person belongs to (the creator always does), ' +
      '`{data: [{id, name, homeCount, updatedAt}], hasMore}`.',
  })
  @RequireScopes('properties:read')
  @ApiOkResponse({ type: CollectionListView })
  list(@CurrentPrincipal() actor: Principal) {
    return this.collections.list(actor);
  }

  @Get(':collectionId')
  @ApiOperation({
    summary: 'Get a collection',
    description:
      'The 40 newest homes, newest first, and `truncated` when there are more. `unavailable` is decided from ' +
      'stored state only (no portal is read): an internal or feed home deleted, off the market or no longer ' +
      'readable; a portal home keeps the copy made when it was added. An unavailable home carries only its ' +
      'reference.',
  })
  @RequireScopes('properties:read')
  @ApiOkResponse({ type: CollectionView })
  @ApiBadRequestErrors()
  @ApiNotFoundError(
    'Collection',
    'when it is absent, another agency’s, or the caller is not one of its members',
  )
  get(@CurrentPrincipal() actor: Principal, @Param('collectionId', UuidParam) collectionId: string) {
    return this.collections.detail(actor, collectionId);
  }
}
