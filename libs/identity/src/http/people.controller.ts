import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiTags, ApiOperation } from '@nestjs/swagger';
import { ApiKeyPrincipal, CurrentPrincipal, Principal, RequireScopes } from '@app/platform';
import { PeopleQueries } from '../application/people.queries';
import { MeView } from '../views/me.view';
import { MemberListView } from '../views/member.view';
import { TagListView } from '../views/tag.view';
import { TeamSummaryListView } from '../views/team.view';

/** Identity and people on `/v1`. */
@ApiTags('v1: identity and people')
@Controller('v1')
export class PeopleController {
  constructor(private readonly people: PeopleQueries) {}

  /** Any valid key with an owner; `entitled` is false when the plan is off. */
  @Get('me')
  @ApiOperation({ summary: 'Read the calling API key, its owner and agency' })
  @RequireScopes()
  @ApiOkResponse({ type: MeView })
  me(@CurrentPrincipal() actor: ApiKeyPrincipal) {
    return this.people.me(actor);
  }

  /** Up to 100 members with `hasMore`. */
  @Get('members')
  @ApiOperation({ summary: "List the agency's members" })
  @RequireScopes('crm:read')
  @ApiOkResponse({ type: MemberListView })
  members(@CurrentPrincipal() actor: Principal) {
    return this.people.members(actor);
  }

  /** Archived teams omitted. */
  @Get('teams')
  @ApiOperation({ summary: "List the agency's teams" })
  @RequireScopes('crm:read')
  @ApiOkResponse({ type: TeamSummaryListView })
  teams(@CurrentPrincipal() actor: Principal) {
    return this.people.teams(actor);
  }

  /** Archived tags omitted. */
  @Get('tags')
  @ApiOperation({ summary: "List the agency's lead tags" })
  @RequireScopes('crm:read')
  @ApiOkResponse({ type: TagListView })
  tags(@CurrentPrincipal() actor: Principal) {
    return this.people.tags(actor);
  }
}
