import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminOnly, CurrentPrincipal, Principal, Session, UuidParam } from '@app/platform';
import { MembersService } from '../application/members.service';
import { TeamsService } from '../application/teams.service';
import { ChangeRoleDto, InviteDto } from './dto/auth.dto';
import { CreateTeamDto, UpdateTeamDto } from './dto/team-tag.dto';

@ApiTags('dashboard: organization')
@Controller('organization')
export class OrganizationController {
  constructor(
    private readonly members: MembersService,
    private readonly teams: TeamsService,
  ) {}

  @Post('invitations')
  @Session()
  @AdminOnly()
  invite(@CurrentPrincipal() actor: Principal, @Body() body: InviteDto) {
    return this.members.invite(actor, body.email, body.role);
  }

  @Get('members')
  @Session()
  listMembers(@CurrentPrincipal() actor: Principal) {
    return this.members.list(actor);
  }

  @Patch('members/:userId')
  @Session()
  @AdminOnly()
  changeRole(
    @CurrentPrincipal() actor: Principal,
    @Param('userId', UuidParam) userId: string,
    @Body() body: ChangeRoleDto,
  ) {
    return this.members.changeRole(actor, userId, body.role);
  }

  /** The person leaves: their sessions end and their API keys stop. */
  @Delete('members/:userId')
  @HttpCode(204)
  @Session()
  @AdminOnly()
  removeMember(
    @CurrentPrincipal() actor: Principal,
    @Param('userId', UuidParam) userId: string,
  ): Promise<void> {
    return this.members.remove(actor, userId);
  }

  @Get('teams')
  @Session()
  listTeams(@CurrentPrincipal() actor: Principal) {
    return this.teams.list(actor);
  }

  @Post('teams')
  @Session()
  @AdminOnly()
  createTeam(@CurrentPrincipal() actor: Principal, @Body() body: CreateTeamDto) {
    return this.teams.create(actor, body);
  }

  @Patch('teams/:teamId')
  @Session()
  @AdminOnly()
  changeTeam(
    @CurrentPrincipal() actor: Principal,
    @Param('teamId', UuidParam) teamId: string,
    @Body() body: UpdateTeamDto,
  ) {
    return this.teams.change(actor, teamId, body);
  }

  /** Archives: the team leaves `/v1/teams`. */
  @Delete('teams/:teamId')
  @Session()
  @AdminOnly()
  archiveTeam(@CurrentPrincipal() actor: Principal, @Param('teamId', UuidParam) teamId: string) {
    return this.teams.archive(actor, teamId);
  }
}
