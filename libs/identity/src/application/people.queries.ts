import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { ApiKeyPrincipal, Principal } from '@app/platform';
import { Organization } from '../domain/organization.entity';
import { User } from '../domain/user.entity';
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

  async me(actor: ApiKeyPrincipal) {
    const [user, organization] = await Promise.all([
      this.em.findOneOrFail(User, actor.userId),
      this.em.findOneOrFail(Organization, actor.organizationId),
    ]);
    return {
      user: { id: user.id, name: user.fullName, email: user.email },
      organization: { id: organization.id, name: organization.name },
      role: actor.role,
      entitled: actor.planActive,
      key: {
        id: actor.keyId,
        name: actor.keyName,
        prefixHint: actor.prefixHint,
        scopes: actor.scopes,
        expiresAt: actor.expiresAt?.toISOString() ?? null,
      },
    };
  }

  members(actor: Principal) {
    return this.membersService.list(actor);
  }

  async teams(actor: Principal) {
    const { data, hasMore } = await this.teamsService.list(actor);
    return {
      data: data.map(({ id, name, color, memberIds, memberCount }) => ({
        id,
        name,
        color,
        memberIds,
        memberCount,
      })),
      hasMore,
    };
  }

  /** Live tags, each with how many of the agency's leads carry it. */
  tags(actor: Principal) {
    return this.tagsService.list(actor);
  }
}
