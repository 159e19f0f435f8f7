import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { v7 as uuidv7 } from 'uuid';
import { preparedRows } from '@app/platform';
import type { RoutableLead } from '@app/crm';
import { wallTime } from '../domain/route-clock';
import type { RoutingTrigger } from '../domain/routing-decision.entity';
import { decide, decideWithinRoute, todayCounts, type RoutingDecision } from '../domain/routing-engine';
import { factsOf } from './lead-facts';
import { insertDecisionStatement, saveCountersStatement, saveRouteStateStatement } from './routing.sql';
import { LoadedRouting, RoutingSnapshots } from './routing-snapshots';

/** A real assignment, as logged (`routing_decisions`). */
export interface Assignment {
  decisionId: string;
  userId: string;
  ruleId: string | null;
  /** The history `actor`: `routing:<ruleId>`, `routing:smart` for Smart routing. */
  actor: string;
  reassignDueAt: Date | null;
}

/**
 * Fairness in one transaction (issue 14 item 4). Callers hold the lead's lock and run inside
 * their transaction; this takes the organization's routing lock (`RoutingSnapshots.load` with
 * `lock`), decides on the state it read, and writes the route's state, the organization's
 * counters and the decision log before the caller writes the owners and commits. Two leads of one
 * agency are therefore decided one after the other, each on the state the previous one left.
 */
@Injectable()
export class LeadAssigner {
  constructor(
    private readonly em: EntityManager,
    private readonly snapshots: RoutingSnapshots,
  ) {}

  /** Routes by position, then Smart routing; null when the lead stays unassigned. */
  async assign(
    lead: RoutableLead,
    trigger: RoutingTrigger,
    previousUserIds: string[],
    now: Date,
  ): Promise<Assignment | null> {
    const loaded = await this.snapshots.load(lead.organizationId, now, { lock: true });
    const decided = decide(loaded.snapshot, factsOf(lead), now);
    if (!decided.userId) return null;
    const minutes = decided.ruleId ? this.route(loaded, decided.ruleId).row.reassignAfterMinutes : null;
    return this.record(loaded, lead.leadId, decided, { trigger, previousUserIds, chain: [], minutes }, now);
  }

  /**
   * Reassignment: the route `ruleId` picks again, leaving out `chain` (everyone the lead went to
   * in this chain). The next hop is scheduled while the chain is shorter than the pool.
   * Null when the route is gone, its hops are used up or nobody is left.
   */
  async reassign(
    organizationId: string,
    leadId: number,
    ruleId: string,
    chain: string[],
    previousUserIds: string[],
    now: Date,
  ): Promise<Assignment | null> {
    const loaded = await this.snapshots.load(organizationId, now, { lock: true });
    const route = loaded.routes.find((candidate) => candidate.row.id === ruleId);
    if (!route || !route.row.reassignAfterMinutes) return null;
    const poolSize = route.members.length;
    if (chain.length - 1 >= poolSize - 1) return null; // at most pool size − 1 hops
    const minutes = route.row.reassignAfterMinutes;
    const decided = decideWithinRoute(loaded.snapshot, ruleId, chain, minutes, now);
    if (!decided?.userId) return null;
    const more = chain.length + 1 < poolSize;
    return this.record(
      loaded,
      leadId,
      decided,
      { trigger: 'reassign', previousUserIds, chain, minutes: more ? minutes : null },
      now,
    );
  }

  private route(loaded: LoadedRouting, ruleId: string) {
    return loaded.routes.find((route) => route.row.id === ruleId)!;
  }

  /** The writes of one assignment, all under the routing lock the load took. */
  private async record(
    loaded: LoadedRouting,
    leadId: number,
    decided: RoutingDecision,
    log: { trigger: RoutingTrigger; previousUserIds: string[]; chain: string[]; minutes: number | null },
    now: Date,
  ): Promise<Assignment> {
    const userId = decided.userId!;
    const org = loaded.organizationId;
    const plusOne = (counts: Record<string, number>) => ({ ...counts, [userId]: (counts[userId] ?? 0) + 1 });
    if (decided.ruleId) {
      const route = this.route(loaded, decided.ruleId).snapshot;
      await preparedRows(
        this.em,
        saveRouteStateStatement(org, route.id, {
          lastAssigneeId: userId,
          received: plusOne(route.state.received),
          todayDay: wallTime(now, route.schedule?.zone ?? null).day,
          todayCounts: plusOne(todayCounts(route, now)),
        }),
      );
    }
    const active = new Set(loaded.snapshot.activeUserIds);
    const lastAssigned = Object.fromEntries(
      Object.entries(loaded.settings.lastAssigned).filter(([id]) => active.has(id)),
    );
    lastAssigned[userId] = now.toISOString();
    await preparedRows(
      this.em,
      saveCountersStatement(org, {
        todayDay: loaded.utcDay,
        todayCounts: plusOne(loaded.snapshot.receivedToday),
        lastAssigned,
      }),
    );
    const decisionId = uuidv7();
    const reassignDueAt = log.minutes ? new Date(now.getTime() + log.minutes * 60_000) : null;
    await preparedRows(
      this.em,
      insertDecisionStatement({
        id: decisionId,
        organizationId: org,
        leadId,
        at: now,
        trigger: log.trigger,
        ruleId: decided.ruleId,
        routeName: decided.routeName,
        strategy: decided.strategy,
        smartRouting: decided.smartRouting,
        userId,
        previousUserIds: log.previousUserIds,
        why: decided.why,
        steps: decided.steps,
        reassignDueAt,
        reassignState: reassignDueAt ? 'pending' : null,
        chainUserIds: [...log.chain, userId],
      }),
    );
    return {
      decisionId,
      userId,
      ruleId: decided.ruleId,
      actor: `routing:${decided.ruleId ?? 'smart'}`,
      reassignDueAt,
    };
  }
}
