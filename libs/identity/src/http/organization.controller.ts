import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiTags,
  ApiOperation,
} from '@nestjs/swagger';
import {
  AdminOnly,
  ApiBadRequestErrors,
  ApiConflictError,
  ApiJsonBodyErrors,
  ApiNotFoundError,
  CurrentPrincipal,
  Principal,
  Session,
  UuidParam,
} from '@app/platform';
import { MembersService } from '../application/members.service';
import { TeamsService } from '../application/teams.service';
import { ChangeRoleDto, InviteDto } from './dto/auth.dto';
import { CreateTeamDto, UpdateTeamDto } from './dto/team-tag.dto';
import { InvitationView } from '../views/invitation.view';
import { MemberListView, MemberView } from '../views/member.view';
import { TeamListView, TeamView } from '../views/team.view';

const LAST_ADMIN = 'CONFLICT: `An organization needs at least one admin.`';

@ApiTags('dashboard: organization')
@Controller('organization')
export class OrganizationController {
  constructor(
    private readonly members: MembersService,
    private readonly teams: TeamsService,
  ) {}

  @Post('invitations')
  @ApiOperation({ summary: 'Invite someone to the agency' })
  @Session()
  @AdminOnly()
  @ApiCreatedResponse({ type: InvitationView, description: 'The invitation; its token is valid 7 days.' })
  @ApiJsonBodyErrors()
  @ApiConflictError('CONFLICT: `This email is already registered.` (the person is in an agency)')
  invite(@CurrentPrincipal() actor: Principal, @Body() body: InviteDto) {
    return this.members.invite(actor, body.email, body.role);
  }

  @Get('members')
  @ApiOperation({ summary: "List the agency's members" })
  @Session()
  @ApiOkResponse({ type: MemberListView })
  listMembers(@CurrentPrincipal() actor: Principal) {
    return this.members.list(actor);
  }

  @Patch('members/:userId')
  @ApiOperation({ summary: "Change a member's role" })
  @Session()
  @AdminOnly()
  @ApiOkResponse({
    type: MemberView,
    description: "The member with the new role (on the person's next call).",
  })
  @ApiJsonBodyErrors()
  @ApiNotFoundError('Member')
  @ApiConflictError(`${LAST_ADMIN} (demoting the last admin)`)
  changeRole(
    @CurrentPrincipal() actor: Principal,
    @Param('userId', UuidParam) userId: string,
    @Body() body: ChangeRoleDto,
  ) {
    return this.members.changeRole(actor, userId, body.role);
  }

  /** The person leaves: their sessions end and their API keys stop. */
  @Delete('members/:userId')
  @ApiOperation({ summary: 'Remove a member from the agency' })
  @HttpCode(204)
  @Session()
  @AdminOnly()
  @ApiNoContentResponse({ description: 'The person left: their sessions ended and their API keys stopped.' })
  @ApiBadRequestErrors()
  @ApiNotFoundError('Member')
  @ApiConflictError(`${LAST_ADMIN} (removing the last admin)`)
  removeMember(
    @CurrentPrincipal() actor: Principal,
    @Param('userId', UuidParam) userId: string,
  ): Promise<void> {
    return this.members.remove(actor, userId);
  }

  @Get('teams')
  @ApiOperation({ summary: "List the agency's teams" })
  @Session()
  @ApiOkResponse({ type: TeamListView })
  listTeams(@CurrentPrincipal() actor: Principal) {
    return this.teams.list(actor);
  }

  @Post('teams')
  @ApiOperation({ summary: 'Create a team' })
  @Session()
  @AdminOnly()
  @ApiCreatedResponse({ type: TeamView })
  @ApiJsonBodyErrors('A `memberIds` entry that is not a member of the organization is VALIDATION_FAILED.')
  createTeam(@CurrentPrincipal() actor: Principal, @Body() body: CreateTeamDto) {
    return this.teams.create(actor, body);
  }

  @Patch('teams/:teamId')
  @ApiOperation({ summary: "Change a team's name, colour or members" })
  @Session()
  @AdminOnly()
  @ApiOkResponse({ type: TeamView })
  @ApiJsonBodyErrors('A `memberIds` entry that is not a member of the organization is VALIDATION_FAILED.')
  @ApiNotFoundError('Team', "when it is absent, archived or out of the caller's reach")
  changeTeam(
    @CurrentPrincipal() actor: Principal,
    @Param('teamId', UuidParam) teamId: string,
    @Body() body: UpdateTeamDto,
  ) {
    return this.teams.change(actor, teamId, body);
  }

  /** Archives: the team leaves `/v1/teams`. */
  @Delete('teams/:teamId')
  @ApiOperation({ summary: 'Archive a team' })
  @Session()
  @AdminOnly()
  @ApiOkResponse({ type: TeamView, description: 'The archived team (`archivedAt` set).' })
  @ApiBadRequestErrors()
  @ApiNotFoundError('Team', "when it is absent, archived or out of the caller's reach")
  archiveTeam(@CurrentPrincipal() actor: Principal, @Param('teamId', UuidParam) teamId: string) {
    return this.teams.archive(actor, teamId);
  }
}
