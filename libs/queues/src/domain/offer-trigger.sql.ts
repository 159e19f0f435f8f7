import type { Statement } from '@app/platform/core';
import { compileGroup, QUEUE_LEADS_FROM } from './filter-compiler';
import type { OfferTrigger, QueueOffer } from './queue-definition';
import type { StoredDefinition } from './queue.entity';

/**
 * Offer generation (issue 13 item 8) as ONE statement per trigger: every rule of that `when` of
 * every queue of the organization, evaluated over the lead (or, for `time_passed`, every lead of
 * the organization), inserting an open offer for each (lead, queue, rule) whose population, root
 * and `if` hold. `on conflict do nothing` on the one-open-offer index makes a second trigger a
 * no-op. Pure: values only as bound parameters.
 *
 * A trigger has no viewer, so a queue is evaluated as its creator opens it: `$me` is the creator,
 * the population is what the creator reaches (an admin: the organization; a member: the leads
 * they are assigned to), and a `team` queue covers the whole organization. The system queue has
 * no rules and is never asked.
 */

/** A queue that has rules of the trigger's `when`, with what its creator reaches. */
export interface TriggerQueue {
  id: string;
  createdBy: string;
  /** The creator is an admin of the organization (reaches every lead). */
  creatorIsAdmin: boolean;
  definition: Pick<StoredDefinition, 'root' | 'rules' | 'calling'>;
}

export interface OfferTriggerInput {
  organizationId: string;
  /** The lead the event happened to; null: every lead of the organization (`time_passed`). */
  leadId: number | null;
  when: OfferTrigger;
  now: Date;
  queues: TriggerQueue[];
  /** The sentence shown for an offer (names resolved by the caller). */
  sentence: (offer: QueueOffer) => string;
}

/** The columns of an offer the trigger returns: its `/v1` view (its event's object) and version. */
const OFFER_COLUMNS = `id, organization_id, lead_id, queue_id, rule_id, "when", offer, status, sentence, created_at,
    decided_at, decided_by, version`;

/** A new offer as the trigger returns it. */
export interface NewOfferRow {
  id: string;
  organization_id: string;
  lead_id: string;
  queue_id: string;
  rule_id: string;
  when: OfferTrigger;
  offer: QueueOffer;
  status: 'open';
  sentence: string;
  created_at: Date | string;
  decided_at: null;
  decided_by: null;
  version: number;
}

/** The insert, or null when no queue has a rule of that `when`. Returns the new offers (`NewOfferRow`). */
export function offerTriggerStatement(input: OfferTriggerInput): Statement | null {
  const arms: Statement[] = [];
  for (const queue of input.queues) {
    const context = { now: input.now, viewerId: queue.createdBy };
    const population: Statement =
      queue.creatorIsAdmin || queue.definition.calling.pool === 'team'
        ? { sql: 'true', params: [] }
        : { sql: 'l.assignee_ids @> array[?]::uuid[]', params: [queue.createdBy] };
    const root = compileGroup(queue.definition.root, context);
    for (const rule of queue.definition.rules) {
      if (rule.when !== input.when) continue;
      const condition = compileGroup(rule.if, context);
      arms.push({
        sql: `(?::uuid, ?::text, ?::jsonb, ?::text, (${population.sql} and ${root.sql} and ${condition.sql}))`,
        params: [
          queue.id,
          rule.id,
          JSON.stringify(rule.offer),
          input.sentence(rule.offer),
          ...population.params,
          ...root.params,
          ...condition.params,
        ],
      });
    }
  }
  if (arms.length === 0) return null;
  const oneLead = input.leadId === null ? '' : ' and l.id = ?';
  const sql = `insert into offers (id, organization_id, lead_id, queue_id, rule_id, "when", offer, status, sentence, created_at)
    select gen_random_uuid(), l.organization_id, l.id, v.queue_id, v.rule_id, ?, v.offer, 'open', v.sentence, ?::timestamptz
      from ${QUEUE_LEADS_FROM}
      cross join lateral (values ${arms.map((arm) => arm.sql).join(', ')}) as v(queue_id, rule_id, offer, sentence, hit)
     where l.organization_id = ?${oneLead} and v.hit
    on conflict do nothing
    returning ${OFFER_COLUMNS}`;
  return {
    sql,
    params: [
      input.when,
      input.now.toISOString(),
      ...arms.flatMap((arm) => arm.params),
      input.organizationId,
      ...(input.leadId === null ? [] : [input.leadId]),
    ],
  };
}

/** Names the sentence uses: tag names and people's names by id. */
export interface OfferNames {
  tags: ReadonlyMap<string, string>;
  people: ReadonlyMap<string, string>;
}

const STATUS_WORDS: Record<string, string> = {
  lead: 'lead',
  potential: 'potential',
  bad_timing: 'bad timing',
  client: 'client',
  unqualified: 'unqualified',
};

/** The human sentence of an offer, e.g. "Set status to potential", "Call back in 2 days". */
export function offerSentence(offer: QueueOffer, names: OfferNames): string {
  switch (offer.kind) {
    case 'set_status':
      return `Set status to ${STATUS_WORDS[offer.status] ?? offer.status}`;
    case 'add_tag':
      return `Add the tag "${names.tags.get(offer.tagId) ?? 'unknown tag'}"`;
    case 'remove_tag':
      return `Remove the tag "${names.tags.get(offer.tagId) ?? 'unknown tag'}"`;
    case 'assign':
      return `Assign to ${names.people.get(offer.userId) ?? 'a former member'}`;
    case 'follow_up':
      return offer.inDays === 0
        ? 'Call back today'
        : `Call back in ${offer.inDays} day${offer.inDays === 1 ? '' : 's'}`;
  }
}
