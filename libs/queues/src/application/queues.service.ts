import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { v7 as uuidv7 } from 'uuid';
import { MembersService, TeamsService } from '@app/identity';
import {
  Clock,
  conflict,
  DomainError,
  isAdmin,
  notFound,
  Principal,
  validationFailed,
  type ValidationIssue,
} from '@app/platform';
import { Queue } from '../domain/queue.entity';
import { QueueRepository } from '../domain/queue.repository';
import {
  validateQueueDefinition,
  type QueueDefinition,
  type QueueDirectory,
  type QueuePeople,
} from '../domain/queue-definition';
import { toQueueJson, type QueueJson } from '../views/queue.view';

/** INTERFACES.md "Queues": at most 50 queues a person. */
export const QUEUES_PER_PERSON = 50;

const queueNotFound = () => notFound('Queue');

/**
 * Queues: the sidebar list, reads and the writes of a person's own queues (INTERFACES.md
 * "Queues" → Routes). Every write is one transaction. Who opens a queue is the aggregate's rule
 * (`Queue.isOpenableBy`); a queue the caller does not open is 404 `Queue not found.`, even for
 * an admin (a colleague's private queue).
 */
@Injectable()
export class QueuesService {
  constructor(
    private readonly em: EntityManager,
    private readonly queues: QueueRepository,
    private readonly members: MembersService,
    private readonly teams: TeamsService,
    private readonly clock: Clock,
  ) {}

  /** The system queue, then own queues, then shared ones, each by name. */
  async list(actor: Principal): Promise<{ queues: QueueJson[] }> {
    const [found, teamIds] = await Promise.all([
      this.queues.listSidebarCandidates(actor.organizationId, actor.userId),
      this.teamIdsOf(actor),
    ]);
    let candidates = found;
    if (!found.some((queue) => queue.system)) {
      // an organization made after the migration gets its system queue on its first list
      await this.queues.ensureSystemQueue(actor.organizationId, uuidv7(), this.clock.now());
      candidates = await this.queues.listSidebarCandidates(actor.organizationId, actor.userId);
    }
    const group = (queue: Queue) => (queue.system ? 0 : queue.isOwnedBy(actor.userId) ? 1 : 2);
    const byName = new Intl.Collator('en', { sensitivity: 'base' });
    const visible = candidates
      .filter((queue) => queue.isOpenableBy(actor.userId, teamIds))
      .sort((a, b) => group(a) - group(b) || byName.compare(a.name, b.name) || a.id.localeCompare(b.id));
    return { queues: visible.map((queue) => toQueueJson(queue, actor.userId)) };
  }

  async get(actor: Principal, queueId: string): Promise<QueueJson> {
    return toQueueJson(await this.openable(actor, queueId), actor.userId);
  }

  /** A queue the caller opens, with the teams they are in; 404 `Queue not found.` otherwise. */
  async openable(actor: Principal, queueId: string): Promise<Queue> {
    const [queue, teamIds] = await Promise.all([
      this.queues.findInOrg(actor.organizationId, { id: queueId }),
      this.teamIdsOf(actor),
    ]);
    if (!queue || !queue.isOpenableBy(actor.userId, teamIds)) throw queueNotFound();
    return queue;
  }

  /** The live teams `actor` is in. */
  async teamIdsOf(actor: Principal): Promise<string[]> {
    const { data } = await this.teams.list(actor);
    return data.filter((team) => team.memberIds.includes(actor.userId)).map((team) => team.id);
  }

  async create(actor: Principal, input: Record<string, unknown>): Promise<QueueJson> {
    const definition = await this.parse(actor, input);
    refuseTeamPool(actor, definition, false);
    return this.em.transactional(async (em) => {
      await this.queues.lockCreator(actor.organizationId, actor.userId);
      if ((await this.queues.countOwnedBy(actor.organizationId, actor.userId)) >= QUEUES_PER_PERSON) {
        throw conflict(`A person can have at most ${QUEUES_PER_PERSON} queues.`);
      }
      const queue = new Queue(actor.organizationId, actor.userId, definition, this.clock.now());
      await em.persist(queue).flush();
      return toQueueJson(queue, actor.userId);
    });
  }

  /** Given fields replace the stored ones (`lanes`, `rules`, `root`, `calling` as wholes). */
  async change(actor: Principal, queueId: string, input: Record<string, unknown>): Promise<QueueJson> {
    return this.em.transactional(async (em) => {
      const queue = await this.ownQueue(actor, queueId);
      const given = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
      const definition = await this.parse(actor, { ...queue.fullDefinition, ...given });
      refuseTeamPool(actor, definition, queue.definition.calling.pool === 'team');
      queue.apply(definition, this.clock.now());
      await em.flush();
      return toQueueJson(queue, actor.userId);
    });
  }

  /** Admin only (the route's guard): who besides its creator sees a shared queue. */
  async setAudience(actor: Principal, queueId: string, audience: QueuePeople): Promise<QueueJson> {
    return this.em.transactional(async (em) => {
      const queue = await this.openable(actor, queueId);
      if (queue.system) throw systemQueue();
      if (queue.scope !== 'shared') {
        throw new DomainError('BAD_REQUEST', 'A private queue has no audience; share it first.');
      }
      const userIds = unique(audience.userIds);
      const teamIds = unique(audience.teamIds);
      const directory = await this.directory(actor, userIds, teamIds);
      const issues: ValidationIssue[] = [
        ...userIds.flatMap((id, i) =>
          directory.userIds.has(id)
            ? []
            : [{ path: `userIds.${i}`, message: 'is not a member of this organization' }],
        ),
        ...teamIds.flatMap((id, i) =>
          directory.teamIds.has(id)
            ? []
            : [{ path: `teamIds.${i}`, message: 'is not a team of this organization' }],
        ),
      ];
      if (issues.length > 0) throw validationFailed(issues);
      queue.setAudience({ userIds, teamIds }, this.clock.now());
      await em.flush();
      return toQueueJson(queue, actor.userId);
    });
  }

  /** Leads are untouched; the queue leaves every sidebar. */
  async delete(actor: Principal, queueId: string): Promise<void> {
    await this.em.transactional(async (em) => {
      const queue = await this.ownQueue(actor, queueId);
      await em.remove(queue).flush();
    });
  }

  /** A queue the caller opens and created: the system queue → 403 QUEUE_IS_SYSTEM, another's → 403 QUEUE_NOT_YOURS. */
  private async ownQueue(actor: Principal, queueId: string): Promise<Queue> {
    const queue = await this.openable(actor, queueId);
    if (queue.system) throw systemQueue();
    if (!queue.isOwnedBy(actor.userId)) {
      throw new DomainError('QUEUE_NOT_YOURS', 'Only the person who made this queue can change it.');
    }
    return queue;
  }

  /**
   * The normalized definition (400 VALIDATION_FAILED with every issue's path): the shape first,
   * then the people a team pool or an `assign` offer names, against the organization.
   */
  async parse(
    actor: Principal,
    input: unknown,
    options: { defaultName?: string } = {},
  ): Promise<QueueDefinition> {
    const shaped = validateQueueDefinition(input, options);
    if (!shaped.ok) throw validationFailed(shaped.issues);
    const { calling, rules } = shaped.definition;
    const userIds = [
      ...(calling.people?.userIds ?? []),
      ...rules.flatMap((rule) => (rule.offer.kind === 'assign' ? [rule.offer.userId] : [])),
    ];
    const teamIds = calling.people?.teamIds ?? [];
    if (userIds.length === 0 && teamIds.length === 0) return shaped.definition;
    const checked = validateQueueDefinition(input, {
      ...options,
      directory: await this.directory(actor, unique(userIds), unique(teamIds)),
    });
    if (!checked.ok) throw validationFailed(checked.issues);
    return checked.definition;
  }

  private async directory(actor: Principal, userIds: string[], teamIds: string[]): Promise<QueueDirectory> {
    const [users, teams] = await Promise.all([
      userIds.length > 0 ? this.members.existingMemberIds(actor.organizationId, userIds) : new Set<string>(),
      this.teams.memberIdsOf(actor.organizationId, teamIds),
    ]);
    return { userIds: users, teamIds: new Set(teams.found) };
  }
}

const unique = (ids: string[]) => [...new Set(ids.map((id) => id.toLowerCase()))];

const systemQueue = () =>
  new DomainError('QUEUE_IS_SYSTEM', 'The system queue cannot be changed, shared or deleted.');

/**
 * A team pool is set by an admin only (create, or any change of a queue that has or gets one:
 * 403 QUEUE_TEAM_POOL_ADMIN_ONLY), and only on a shared queue (400 QUEUE_TEAM_POOL_NOT_SHARED),
 * checked in that order.
 */
function refuseTeamPool(actor: Principal, definition: QueueDefinition, wasTeam: boolean): void {
  const team = definition.calling.pool === 'team';
  if ((team || wasTeam) && !isAdmin(actor)) {
    throw new DomainError(
      'QUEUE_TEAM_POOL_ADMIN_ONLY',
      'Only an organization admin can set a team calling pool.',
    );
  }
  if (team && definition.scope !== 'shared') {
    throw new DomainError('QUEUE_TEAM_POOL_NOT_SHARED', 'A queue with a team calling pool must be shared.');
  }
}
