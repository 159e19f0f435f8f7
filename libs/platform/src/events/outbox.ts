import { EventSubscriber, MikroORM, TransactionEventArgs } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { v7 as uuidv7 } from 'uuid';
import type { IntegrationPrincipal, Principal } from '../auth/principal';

/** The event catalogue (INTERFACES.md "Webhooks and MCP"; issue 19 item 1). */
export const EVENT_TYPES = [
  'lead.created',
  'lead.updated',
  'lead.status_changed',
  'lead.assigned',
  'lead.routed',
  'lead.inquiry',
  'note.created',
  'note.updated',
  'note.deleted',
  'task.created',
  'task.updated',
  'task.completed',
  'task.deleted',
  'deal.created',
  'deal.updated',
  'deal.stage_changed',
  'deal.won',
  'deal.lost',
  'deal.reopened',
  'call.ended',
  'call.transcript_ready',
  'call.analysis_ready',
  'message.received',
  'message.sent',
  'email.received',
  'email.sent',
  'viewing.created',
  'viewing.updated',
  'viewing.status_changed',
  'document.shared',
  'document.unshared',
  'brochure.viewed',
  'brochure.expired',
  'brochure.revoked',
  'offer.created',
  'webhook_endpoint.disabled',
  'ping',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Who made the change: a person (session), a person's API or MCP key, an integration key, or the service itself (jobs). */
export interface EventActor {
  type: 'user' | 'api_key' | 'mcp_key' | 'integration' | 'system';
  /** The key's id for a key, the person's id for a session; null for the system. */
  id: string | null;
  /** The person behind it (a key's owner); null for an integration or the system. */
  userId: string | null;
}

export const SYSTEM_ACTOR: EventActor = { type: 'system', id: null, userId: null };

/** The actor of a change made by `principal` (null: a job, the service itself). */
export function eventActorOf(principal: Principal | IntegrationPrincipal | null | undefined): EventActor {
  if (!principal) return SYSTEM_ACTOR;
  if (principal.kind === 'integration') return { type: 'integration', id: principal.keyId, userId: null };
  if (principal.kind === 'apiKey')
    return {
      type: principal.via === 'mcp' ? 'mcp_key' : 'api_key',
      id: principal.keyId,
      userId: principal.userId,
    };
  return { type: 'user', id: principal.userId, userId: principal.userId };
}

/** A change to record: the event without its id and sequence (given at commit). */
export interface EventDraft {
  organizationId: string;
  type: EventType;
  occurredAt: Date;
  subject: { type: string; id: string; leadId?: number | null };
  /** The record's own `version` after the change (1 on create). */
  recordVersion: number;
  actor: EventActor;
  /** `object`: the record as `/v1` answers it; `previous`: the old values of `changedFields`. */
  data: { object: unknown; previous?: Record<string, unknown> };
  changedFields?: string[];
}

/** The statement that numbers and stores one organization's events of a commit (pure, for the benchmark baseline). */
export function insertEventsStatement(
  organizationId: string,
  drafts: EventDraft[],
): { sql: string; params: unknown[] } {
  const rows = drafts.map((d) => ({
    id: `evt_${uuidv7()}`,
    type: d.type,
    occurred_at: d.occurredAt.toISOString(),
    subject_type: d.subject.type,
    subject_id: d.subject.id,
    lead_id: d.subject.leadId ?? null,
    record_version: d.recordVersion,
    actor: d.actor,
    data: d.data,
    changed_fields: d.changedFields ?? null,
  }));
  return {
    sql: `with c as (
            insert into org_event_counter as k (organization_id, last) values (?, ?)
            on conflict (organization_id) do update set last = k.last + excluded.last
            returning last
          )
          insert into event (id, organization_id, sequence, type, occurred_at, subject_type, subject_id,
                             lead_id, record_version, actor, data, changed_fields)
          select e.doc->>'id', ?, c.last - ? + e.ord, e.doc->>'type', (e.doc->>'occurred_at')::timestamptz,
                 e.doc->>'subject_type', e.doc->>'subject_id', (e.doc->>'lead_id')::bigint,
                 (e.doc->>'record_version')::int, e.doc->'actor', e.doc->'data',
                 case when jsonb_typeof(e.doc->'changed_fields') = 'array'
                      then array(select jsonb_array_elements_text(e.doc->'changed_fields')) end
            from c cross join jsonb_array_elements(?::jsonb) with ordinality e(doc, ord)`,
    params: [organizationId, drafts.length, organizationId, drafts.length, JSON.stringify(rows)],
  };
}

/**
 * The transactional outbox (issue 19 item 1). A write use-case calls `record(em, ...drafts)`
 * inside its transaction (the outermost one); the drafts are written when that transaction
 * commits, by one statement per organization run just before `COMMIT` (a MikroORM
 * `beforeTransactionCommit` subscriber): it takes the organization's counter (`org_event_counter`,
 * row-locked until the commit, so one organization's event-producing commits are serialised and
 * `sequence` order is commit order) and inserts the events numbered from it. A rollback drops
 * them with the transaction.
 */
@Injectable()
export class Outbox implements OnModuleInit, EventSubscriber {
  private readonly pending = new WeakMap<object, EventDraft[]>();

  constructor(private readonly orm: MikroORM) {}

  onModuleInit(): void {
    this.orm.em.getEventManager().registerSubscriber(this);
  }

  /** Queues events for the commit of `em`'s transaction (throws outside one: a programming error). */
  record(em: EntityManager, ...drafts: EventDraft[]): void {
    const trx = em.getTransactionContext() as object | undefined;
    if (!trx) throw new Error('Outbox.record needs a transaction (em.transactional)');
    if ('savepointName' in trx) throw new Error('Outbox.record needs the outermost transaction');
    const queued = this.pending.get(trx);
    if (queued) queued.push(...drafts);
    else this.pending.set(trx, [...drafts]);
  }

  async beforeTransactionCommit(args: TransactionEventArgs): Promise<void> {
    const trx = args.transaction as object | undefined;
    if (!trx) return;
    const drafts = this.pending.get(trx);
    if (!drafts?.length) return;
    this.pending.delete(trx);
    const byOrganization = new Map<string, EventDraft[]>();
    for (const draft of drafts) {
      const list = byOrganization.get(draft.organizationId);
      if (list) list.push(draft);
      else byOrganization.set(draft.organizationId, [draft]);
    }
    // organizations in a fixed order: two commits never wait on each other's counters crosswise
    for (const organizationId of [...byOrganization.keys()].sort()) {
      const statement = insertEventsStatement(organizationId, byOrganization.get(organizationId)!);
      await args.em.getConnection().execute(statement.sql, statement.params, 'run', args.transaction);
    }
  }
}
