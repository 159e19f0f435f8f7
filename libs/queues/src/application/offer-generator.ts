import { CreateRequestContext, MikroORM } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { HOUR, JobName, Outbox, Periodic, preparedRows, SYSTEM_ACTOR } from '@app/platform';
import {
  type NewOfferRow,
  offerSentence,
  offerTriggerStatement,
  type OfferNames,
  type TriggerQueue,
} from '../domain/offer-trigger.sql';
import type { OfferTrigger, QueueOffer } from '../domain/queue-definition';
import type { StoredDefinition } from '../domain/queue.entity';
import type { Offer } from '../domain/offer.entity';
import { toOfferJson } from '../views/offer.view';

interface QueueRow {
  id: string;
  created_by: string;
  creator_is_admin: boolean;
  definition: StoredDefinition;
}

/** What the generator hears of the CRM's lead events. */
export interface OfferEvent {
  kind: 'call_ended' | 'task_completed';
  organizationId: string;
  leadId: number;
  at: Date;
}

/**
 * Makes offers (issue 13 item 8): a trigger evaluates every rule of its `when` of the
 * organization's queues over the lead in ONE statement (`offerTriggerStatement`), one open offer
 * per lead, queue and rule. `call_ended` and `task_completed` come from the CRM's lead events
 * (`OfferTriggers`), `time_passed` from the hourly job, which runs in apps/worker too: this
 * needs nothing but the database (no CRM service, no HTTP pipeline).
 */
@Injectable()
export class OfferGenerator {
  constructor(
    // CreateRequestContext (the periodic job) finds the ORM here
    private readonly orm: MikroORM,
    private readonly em: EntityManager,
    private readonly outbox: Outbox,
  ) {}

  /** A lead event from the CRM: `call_ended`, `task_completed`. */
  onLeadEvent(event: OfferEvent): Promise<number> {
    return this.trigger(event.organizationId, event.leadId, event.kind, event.at);
  }

  /**
   * Evaluates every rule of `when` of the organization's queues over the lead (null: every lead of
   * the organization) and stores the offers that hold, one open offer per lead, queue and rule.
   * Answers how many were made.
   */
  async trigger(
    organizationId: string,
    leadId: number | null,
    when: OfferTrigger,
    now: Date,
  ): Promise<number> {
    // the lookups first: most events find no rule of their `when` and end here, with no transaction
    // prepared: it runs on every call's first write and every completed task
    const queues = await preparedRows<QueueRow>(this.em, {
      sql: `select q.id, q.created_by, q.definition, coalesce(m.role = 'admin', false) as creator_is_admin
              from queues q
              join memberships m on m.user_id = q.created_by and m.organization_id = q.organization_id
             where q.organization_id = ? and not q.system and q.definition -> 'rules' @> ?::jsonb`,
      params: [organizationId, JSON.stringify([{ when }])],
    });
    if (queues.length === 0) return 0;
    const triggerQueues: TriggerQueue[] = queues.map((row) => ({
      id: row.id,
      createdBy: row.created_by,
      creatorIsAdmin: row.creator_is_admin,
      definition: row.definition,
    }));
    const names = await this.names(
      organizationId,
      triggerQueues.flatMap((queue) => queue.definition.rules.filter((rule) => rule.when === when)),
    );
    const statement = offerTriggerStatement({
      organizationId,
      leadId,
      when,
      now,
      queues: triggerQueues,
      sentence: (offer) => offerSentence(offer, names),
    });
    if (!statement) return 0;
    // the one statement that evaluates and inserts; in a transaction: no read timeout, no retry;
    // each new offer's `offer.created` in it (a trigger has no principal: the system is the actor)
    return this.em.transactional(async (em) => {
      const rows = await preparedRows<NewOfferRow>(em, statement);
      if (rows.length > 0) {
        this.outbox.record(
          em,
          ...rows.map((row) => ({
            organizationId: row.organization_id,
            type: 'offer.created' as const,
            occurredAt: now,
            subject: { type: 'offer', id: row.id, leadId: Number(row.lead_id) },
            recordVersion: row.version,
            actor: SYSTEM_ACTOR,
            data: { object: toOfferJson(offerOf(row)) },
          })),
        );
      }
      return rows.length;
    });
  }

  /** `time_passed`, hourly: every organization whose queues have such a rule, one statement each. */
  @Periodic(JobName.OffersTimePassed, HOUR)
  @CreateRequestContext()
  async timePassed(now: Date): Promise<{ organizations: number; offers: number }> {
    const rows = await this.em.execute<{ organization_id: string }[]>(
      `select distinct organization_id from queues
        where not system and definition -> 'rules' @> ?::jsonb`,
      [JSON.stringify([{ when: 'time_passed' }])],
    );
    let offers = 0;
    for (const row of rows) offers += await this.trigger(row.organization_id, null, 'time_passed', now);
    return { organizations: rows.length, offers };
  }

  /** Tag and people names the sentences of these rules need. */
  private async names(organizationId: string, rules: { offer: QueueOffer }[]): Promise<OfferNames> {
    const tagIds = rules.flatMap(({ offer }) =>
      offer.kind === 'add_tag' || offer.kind === 'remove_tag' ? [offer.tagId] : [],
    );
    const userIds = rules.flatMap(({ offer }) => (offer.kind === 'assign' ? [offer.userId] : []));
    const tags = new Map<string, string>();
    const people = new Map<string, string>();
    if (tagIds.length === 0 && userIds.length === 0) return { tags, people };
    const rows = await this.em.execute<{ kind: string; id: string; name: string }[]>(
      `select 'tag' as kind, t.id::text as id, t.name from tags t where t.organization_id = ? and t.id = any(?::uuid[])
       union all
       select 'person', u.id::text, trim(u.first_name || ' ' || u.last_name)
         from users u join memberships m on m.user_id = u.id
        where m.organization_id = ? and u.id = any(?::uuid[])`,
      [organizationId, `{${tagIds.join(',')}}`, organizationId, `{${userIds.join(',')}}`],
    );
    for (const row of rows) (row.kind === 'tag' ? tags : people).set(row.id, row.name);
    return { tags, people };
  }
}

/** A new offer's row as the one view renders it (never flushed). */
const offerOf = (row: NewOfferRow): Offer =>
  ({
    id: row.id,
    leadId: Number(row.lead_id),
    queueId: row.queue_id,
    ruleId: row.rule_id,
    when: row.when,
    offer: row.offer,
    status: row.status,
    sentence: row.sentence,
    createdAt: new Date(row.created_at),
    decidedAt: null,
    decidedBy: null,
  }) as Offer;
