import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import {
  cappedResult,
  Clock,
  DomainError,
  isAdmin,
  ListResult,
  notFound,
  OffsetQuery,
  Principal,
} from '@app/platform';
import { KeyDoor } from '@app/identity';
import { ACTIVE_MCP_KEYS_PER_PERSON, McpKey, NewMcpKey } from '../domain/mcp-key.entity';
import { McpKeyRepository } from '../domain/mcp-key.repository';
import { createdMcpKeyJson, CreatedMcpKeyJson, mcpKeyJson, McpKeyJson } from '../views/mcp-key.view';

/** MCP key management on session routes: create, list, revoke (INTERFACES.md "Webhooks and MCP"). */
@Injectable()
export class McpKeysService {
  constructor(
    private readonly em: EntityManager,
    private readonly keys: McpKeyRepository,
    private readonly door: KeyDoor,
    private readonly clock: Clock,
  ) {}

  /** 201 with the secret, once; 10 active keys a person (409 API_KEY_LIMIT_REACHED). */
  async create(actor: Principal, input: NewMcpKey): Promise<CreatedMcpKeyJson> {
    const now = this.clock.now();
    const key = McpKey.issue(actor, input, now);
    await this.em.transactional(async (em) => {
      await this.keys.serializeCreatesOf(actor.userId);
      const active = await this.keys.countActiveOf(actor.organizationId, actor.userId, now);
      if (active >= ACTIVE_MCP_KEYS_PER_PERSON) {
        throw new DomainError('API_KEY_LIMIT_REACHED', 'You already have 10 active MCP keys.');
      }
      em.persist(key);
    });
    return createdMcpKeyJson(key);
  }

  /** The person's keys (an admin's: every key of the organization), every status, newest first. */
  async list(actor: Principal, page: OffsetQuery): Promise<ListResult<McpKeyJson>> {
    const rows = await this.keys.listNewestFirst(
      actor.organizationId,
      isAdmin(actor) ? null : actor.userId,
      page.limit,
      page.offset,
    );
    const now = this.clock.now();
    return cappedResult(
      rows.map((key) => mcpKeyJson(key, actor.userId, now)),
      page.limit,
    );
  }

  /** Owner or admin (a member on a colleague's key: 403; another agency's: 404); 401 at once after, on every process. */
  async revoke(actor: Principal, keyId: string): Promise<{ success: true }> {
    const key = await this.keys.findInOrg(actor.organizationId, { id: keyId });
    if (!key) throw notFound('MCP key');
    key.assertManageableBy(actor);
    key.revoke(this.clock.now());
    await this.em.flush();
    await this.door.keyChanged(key.id);
    return { success: true };
  }
}
