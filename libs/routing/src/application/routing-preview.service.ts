import { Injectable } from '@nestjs/common';
import { Clock, notFound, Principal } from '@app/platform';
import { RoutingLeads } from '@app/crm';
import { decide } from '../domain/routing-engine';
import type { RoutingFacts } from '../domain/routing-facts';
import type { RoutingPreviewJson } from '../views/routing-preview.view';
import { factsOf } from './lead-facts';
import { RoutingSnapshots } from './routing-snapshots';

/**
 * `POST /v1/lead-routing/preview`: the decision a real assignment of this lead would make now,
 * from the same snapshot and engine, with `facts` overriding the lead's own field by field.
 * Writes nothing and takes no lock.
 */
@Injectable()
export class RoutingPreviewService {
  constructor(
    private readonly snapshots: RoutingSnapshots,
    private readonly leads: RoutingLeads,
    private readonly clock: Clock,
  ) {}

  async preview(
    actor: Principal,
    input: { leadId: number; facts?: Partial<RoutingFacts> },
  ): Promise<RoutingPreviewJson> {
    const lead = await this.leads.facts(actor.organizationId, input.leadId);
    if (!lead) throw notFound('Lead');
    const now = this.clock.now();
    const loaded = await this.snapshots.load(actor.organizationId, now, { lock: false });
    const facts = { ...factsOf(lead), ...definedOnly(input.facts ?? {}) };
    const decided = decide(loaded.snapshot, facts, now);
    return {
      ruleId: decided.ruleId,
      routeName: decided.routeName,
      smartRouting: decided.smartRouting,
      userId: decided.userId,
      userName: decided.userId ? (loaded.snapshot.names?.[decided.userId] ?? null) : null,
      why: decided.why,
      steps: decided.steps,
    };
  }
}

const definedOnly = (facts: Partial<RoutingFacts>): Partial<RoutingFacts> =>
  Object.fromEntries(Object.entries(facts).filter(([, value]) => value !== undefined));
