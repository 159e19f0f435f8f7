import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags, ApiOperation } from '@nestjs/swagger';
import {
  ApiBadRequestErrors,
  ApiConflictError,
  ApiForbiddenError,
  ApiJsonBodyErrors,
  ApiNotFoundError,
  CurrentPrincipal,
  Principal,
  Session,
  UuidParam,
} from '@app/platform';
import { TagsService } from '../application/tags.service';
import { CreateTagDto, ListTagsQueryDto, UpdateTagDto } from './dto/team-tag.dto';
import { TagListView, TagView } from '../views/tag.view';

const NAME_TAKEN = 'CONFLICT: `A tag with this name already exists.` (live tags, any case)';
const CREATOR_OR_ADMIN = 'FORBIDDEN: `Only the tag creator or an admin can change it.`';

@ApiTags('dashboard: tags')
@Controller('tags')
export class TagsController {
  constructor(private readonly tags: TagsService) {}

  @Get()
  @ApiOperation({ summary: "List the agency's lead tags" })
  @Session()
  @ApiOkResponse({
    type: TagListView,
    description: 'Live tags by name; archived ones too with includeArchived=true.',
  })
  @ApiBadRequestErrors()
  list(@CurrentPrincipal() actor: Principal, @Query() query: ListTagsQueryDto) {
    return this.tags.list(actor, query.includeArchived === 'true');
  }

  @Post()
  @ApiOperation({ summary: 'Create a lead tag' })
  @Session()
  @ApiCreatedResponse({ type: TagView })
  @ApiJsonBodyErrors()
  @ApiConflictError(NAME_TAKEN)
  create(@CurrentPrincipal() actor: Principal, @Body() body: CreateTagDto) {
    return this.tags.create(actor, body);
  }

  /** The tag's creator or an admin. */
  @Patch(':tagId')
  @ApiOperation({ summary: 'Rename or recolour a lead tag' })
  @Session()
  @ApiOkResponse({ type: TagView })
  @ApiJsonBodyErrors()
  @ApiForbiddenError(CREATOR_OR_ADMIN)
  @ApiNotFoundError('Tag', "when it is absent, archived or out of the caller's reach")
  @ApiConflictError(NAME_TAKEN)
  change(
    @CurrentPrincipal() actor: Principal,
    @Param('tagId', UuidParam) tagId: string,
    @Body() body: UpdateTagDto,
  ) {
    return this.tags.change(actor, tagId, body);
  }

  /** Archives: the tag leaves `/v1/tags` and the pickers; leads keep nothing pointing at it. */
  @Delete(':tagId')
  @ApiOperation({ summary: 'Archive a lead tag' })
  @Session()
  @ApiOkResponse({ type: TagView, description: 'The archived tag (`archivedAt` set).' })
  @ApiBadRequestErrors()
  @ApiForbiddenError(CREATOR_OR_ADMIN)
  @ApiNotFoundError('Tag', "when it is absent, archived or out of the caller's reach")
  archive(@CurrentPrincipal() actor: Principal, @Param('tagId', UuidParam) tagId: string) {
    return this.tags.archive(actor, tagId);
  }
}
