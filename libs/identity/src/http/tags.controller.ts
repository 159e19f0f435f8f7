import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, Session, UuidParam } from '@app/platform';
import { TagsService } from '../application/tags.service';
import { CreateTagDto, ListTagsQueryDto, UpdateTagDto } from './dto/team-tag.dto';

@ApiTags('dashboard: tags')
@Controller('tags')
export class TagsController {
  constructor(private readonly tags: TagsService) {}

  @Get()
  @Session()
  list(@CurrentPrincipal() actor: Principal, @Query() query: ListTagsQueryDto) {
    return this.tags.list(actor, query.includeArchived === 'true');
  }

  @Post()
  @Session()
  create(@CurrentPrincipal() actor: Principal, @Body() body: CreateTagDto) {
    return this.tags.create(actor, body);
  }

  /** The tag's creator or an admin. */
  @Patch(':tagId')
  @Session()
  change(
    @CurrentPrincipal() actor: Principal,
    @Param('tagId', UuidParam) tagId: string,
    @Body() body: UpdateTagDto,
  ) {
    return this.tags.change(actor, tagId, body);
  }

  /** Archives: the tag leaves `/v1/tags` and the pickers; leads keep nothing pointing at it. */
  @Delete(':tagId')
  @Session()
  archive(@CurrentPrincipal() actor: Principal, @Param('tagId', UuidParam) tagId: string) {
    return this.tags.archive(actor, tagId);
  }
}
