import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { ApiKeyPrincipal, Principal } from '@app/platform';
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
  async me(actor: ApiKeyPrincipal) {
    const [row] = await this.em.execute<
      { first_name: string; last_name: string; email: string; org_name: string }[]
    >(
      `select u.first_name, u.last_name, u.email, o.name as org_name
         from users u, organizations o where u.id = ? and o.id = ?`,
      [actor.userId, actor.organizationId],
    );
    return {
      user: { id: actor.userId, name: `${row.first_name} ${row.last_name}`.trim(), email: row.email },
      organization: { id: actor.organizationId, name: row.org_name },
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
