import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { ApiKeyPrincipal, ListResult, preparedRows, Principal } from '@app/platform';
import { meStatement } from './people.sql';
import { meView, MeJson, MeRow } from '../views/me.view';
import { MemberJson } from '../views/member.view';
import { TagJson } from '../views/tag.view';
import { TeamSummaryJson } from '../views/team.view';
import { MembersService } from './members.service';
import { TagsService } from './tags.service';
import { TeamsService } from './teams.service';

/** Read models of `/v1/me`, `/v1/members`, `/v1/teams`, `/v1/tags`. */
@Injectable()
export class PeopleQueries {
  constructor(
    private readonly em: EntityManager,
    private readonly membersService: MembersService,
    private readonly teamsService: TeamsService,
    private readonly tagsService: TagsService,
  ) {}

  /** One plain query: integrators call this to check a key, so it stays cheap. */
  async me(actor: ApiKeyPrincipal): Promise<MeJson> {
    const [row] = await preparedRows<MeRow>(this.em, meStatement(actor.userId, actor.organizationId));
    return meView(actor, row);
  }

  members(actor: Principal): Promise<ListResult<MemberJson>> {
    return this.membersService.list(actor);
  }

  teams(actor: Principal): Promise<ListResult<TeamSummaryJson>> {
    return this.teamsService.summaries(actor);
  }

  /** Live tags, each with how many of the agency's leads carry it. */
  tags(actor: Principal): Promise<ListResult<TagJson>> {
    return this.tagsService.list(actor);
  }
}
