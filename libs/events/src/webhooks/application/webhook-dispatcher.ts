import { CreateRequestContext, MikroORM } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import {
  Clock,
  DAY,
  DelayedJobs,
  HOUR,
  JobName,
  loggableError,
  OnDelayedJob,
  Outbox,
  Periodic,
  SYSTEM_ACTOR,
  type Statement,
} from '@app/platform';
import {
  CLAIM_LEASE_MS,
  FAILING_DISABLES_AFTER_MS,
  matchesEvent,
  nextAttemptAt,
  retryAfterMs,
  signedHeaders,
  WEBHOOK_LIMITS,
  type DisabledReason,
} from '../domain/webhook-rules';
import { eventJsonOf, type EventRow } from '../views/webhook-event.view';
import { toEndpointJson, type DeliveryRow, type EndpointRow } from '../views/webhook-endpoint.view';
import {
  advanceCursorStatement,
  claimDeliveryStatement,
  claimDueStatement,
  disableEndpointStatement,
  enabledEndpointsStatement,
  endpointFailedStatement,
  eventsAfterStatement,
  failPendingStatement,
  insertDeliveriesStatement,
  lockCursorStatement,
  lockEndpointStatement,
  purgeDeliveriesStatement,
  recordSuccessStatement,
  recordAttemptStatement,
  relayBacklogStatement,
  type AttemptOutcomeRow,
  type NewDeliveryRow,
} from '../webhooks.sql';
import { WebhookTransport } from './webhook-transport';

/** A delivery taken for an attempt, with what the attempt needs of its endpoint. */
export interface ClaimedDelivery {
  id: string;
  organization_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  payload: string;
  attempt: number;
  url: string;
  endpoint_status: 'enabled' | 'disabled';
  secret: string;
  previous_secret: string | null;
  previous_secret_valid_until: Date | string | null;
}

/** Events read per organization and relay transaction. */
export const RELAY_BATCH = 500;
/** Deliveries claimed at once by a sweep, attempted side by side. */
export const SWEEP_BATCH = 50;
const SWEEP_BATCHES_PER_RUN = 20;
/** How often the pump runs (relay, then due deliveries). */
export const PUMP_EVERY_MS = 500;
/** How long one pump keeps going while it finds work. */
const PUMP_BUDGET_MS = 5_000;

const run = (em: EntityManager, s: Statement) => em.execute(s.sql, s.params, 'run');
const rows = <T>(em: EntityManager, s: Statement) => em.execute<T[]>(s.sql, s.params);

/** The job id of a delivery's first attempt (`<endpointId>:<eventId>`), and of the later ones. */
export const deliveryJobId = (endpointId: string, eventId: string, attempt = 1): string =>
  attempt <= 1 ? `${endpointId}:${eventId}` : `${endpointId}:${eventId}:${attempt}`;

/**
 * Webhook delivery (issue 19 item 5). The relay turns each committed event into one delivery per
 * matching enabled endpoint (unique per endpoint and event: relaying twice sends once), following a
 * per-organization cursor over the gap-free `sequence`. An attempt claims its delivery (`attempt` +
 * 1, due again after the lease should the process die), POSTs the signed event, then records the
 * outcome: 2xx succeeded; 410 disables the endpoint; otherwise the next attempt per the schedule
 * (a longer `Retry-After` on 429/503 honoured) or `failed` after the tenth, and an endpoint with no
 * success for 3 days is disabled (`failing`) with a `webhook_endpoint.disabled` event.
 *
 * The rows are the truth in both job modes: the pump (`@Periodic`, every 500 ms: in apps/worker
 * with REDIS_URL, on the API's timer without) relays and attempts every due delivery; with Redis
 * each delivery also gets a delayed job at its due time (`<endpointId>:<eventId>`), which only makes
 * it punctual.
 */
@Injectable()
export class WebhookDispatcher implements BeforeApplicationShutdown {
  private readonly log = new Logger('Webhooks');
  private pumping: Promise<unknown> | null = null;
  private stopping = false;

  constructor(
    // CreateRequestContext (the jobs) finds the ORM here
    private readonly orm: MikroORM,
    private readonly em: EntityManager,
    private readonly clock: Clock,
    private readonly outbox: Outbox,
    private readonly delayed: DelayedJobs,
    private readonly transport: WebhookTransport,
  ) {}

  /**
   * One pump: relay every organization's new events, then attempt what is due, again while either
   * found work (up to PUMP_BUDGET_MS: a backlog drains without waiting for the next tick, and a
   * BullMQ worker's queue is not held for long). One run at a time: a tick during a run is skipped.
   */
  @Periodic(JobName.WebhooksPump, PUMP_EVERY_MS)
  pump(now: Date): Promise<{ relayed: number; attempted: number } | { skipped: true }> {
    if (this.pumping) return Promise.resolve({ skipped: true });
    const running = (async () => {
      const started = Date.now();
      let relayed = 0;
      let attempted = 0;
      let at = now;
      for (;;) {
        const made = await this.relay();
        const tried = await this.deliverDue(at);
        relayed += made;
        attempted += tried;
        if ((made === 0 && tried === 0) || this.stopping || Date.now() - started > PUMP_BUDGET_MS) break;
        at = this.clock.now();
      }
      return { relayed, attempted };
    })();
    this.pumping = running;
    return running.finally(() => (this.pumping = null));
  }

  /** A stop ends a running pump after its current round (its attempts, 10 s at most, finish). */
  beforeApplicationShutdown(): void {
    this.stopping = true;
  }

  /** The relay over every organization with a backlog; answers the deliveries made. */
  @CreateRequestContext()
  async relay(): Promise<number> {
    const backlog = await rows<{ organization_id: string }>(this.em, relayBacklogStatement());
    let made = 0;
    for (const { organization_id } of backlog) {
      for (;;) {
        const step = await this.relayOrganization(organization_id);
        made += step.made;
        if (step.read < RELAY_BATCH) break;
      }
    }
    return made;
  }

  /** One relay transaction: up to RELAY_BATCH events after the cursor, their deliveries, the cursor moved. */
  async relayOrganization(organizationId: string): Promise<{ read: number; made: number }> {
    const now = this.clock.now();
    const created = await this.em.fork().transactional(async (em) => {
      const [cursor] = await rows<{ last: string }>(em, lockCursorStatement(organizationId));
      if (!cursor) return { read: 0, made: [] as { id: string; endpoint_id: string; event_id: string }[] };
      const events = await rows<EventRow>(em, eventsAfterStatement(organizationId, cursor.last, RELAY_BATCH));
      if (events.length === 0) return { read: 0, made: [] };
      const endpoints = await rows<{ id: string; events: string[]; relay_from_sequence: string }>(
        em,
        enabledEndpointsStatement(organizationId),
      );
      const deliveries: NewDeliveryRow[] = [];
      for (const event of events) {
        if (event.type === 'ping') continue; // a ping goes only to the endpoint tested
        let payload: string | null = null;
        for (const endpoint of endpoints) {
          if (BigInt(event.sequence) <= BigInt(endpoint.relay_from_sequence)) continue;
          if (!matchesEvent(endpoint.events, event.type)) continue;
          payload ??= JSON.stringify(eventJsonOf(event));
          deliveries.push({ endpointId: endpoint.id, eventId: event.id!, eventType: event.type, payload });
        }
      }
      const made = deliveries.length
        ? await rows<{ id: string; endpoint_id: string; event_id: string }>(
            em,
            insertDeliveriesStatement(organizationId, deliveries, now, now),
          )
        : [];
      await run(em, advanceCursorStatement(organizationId, String(events[events.length - 1].sequence)));
      return { read: events.length, made };
    });
    if (this.delayed.enabled) {
      for (const d of created.made) {
        this.delayed.schedule(
          JobName.WebhooksDeliver,
          deliveryJobId(d.endpoint_id, d.event_id),
          { deliveryId: d.id },
          now,
        );
      }
    }
    return { read: created.read, made: created.made.length };
  }

  /** Claims and attempts due deliveries, batch by batch, until none is due (bounded per run). */
  @CreateRequestContext()
  async deliverDue(now: Date): Promise<number> {
    let attempted = 0;
    for (let batch = 0; batch < SWEEP_BATCHES_PER_RUN; batch++) {
      const claimed = await rows<ClaimedDelivery>(
        this.em,
        claimDueStatement(now, new Date(now.getTime() + CLAIM_LEASE_MS), SWEEP_BATCH),
      );
      await Promise.all(claimed.map((c) => this.attempt(c)));
      attempted += claimed.length;
      if (claimed.length < SWEEP_BATCH || this.stopping) break;
    }
    return attempted;
  }

  /** A delivery's delayed job (with REDIS_URL): attempts it if it is still due; nothing otherwise. */
  @OnDelayedJob(JobName.WebhooksDeliver)
  @CreateRequestContext()
  async deliverOne(data: Record<string, unknown>, now: Date): Promise<{ attempted: boolean }> {
    const id = typeof data.deliveryId === 'string' ? data.deliveryId : null;
    if (!id) return { attempted: false };
    const [claimed] = await rows<ClaimedDelivery>(
      this.em,
      claimDeliveryStatement(id, now, new Date(now.getTime() + CLAIM_LEASE_MS)),
    );
    if (!claimed) return { attempted: false };
    await this.attempt(claimed);
    return { attempted: true };
  }

  /** Deliveries older than the retention go (in batches). */
  @Periodic(JobName.WebhooksPurge, HOUR)
  @CreateRequestContext()
  async purge(now: Date): Promise<{ deleted: number }> {
    const before = new Date(now.getTime() - WEBHOOK_LIMITS.retentionDays * DAY);
    let deleted = 0;
    for (let i = 0; i < 100; i++) {
      const n = (await run(this.em, purgeDeliveriesStatement(before, 5_000))) as unknown as number;
      const count = typeof n === 'number' ? n : Number((n as { affectedRows?: number }).affectedRows ?? 0);
      deleted += count;
      if (count < 5_000) break;
    }
    return { deleted };
  }

  /** One attempt of a claimed delivery, its outcome recorded; answers the delivery as recorded (null if taken since). */
  async attempt(claimed: ClaimedDelivery): Promise<DeliveryRow | null> {
    try {
      return await this.attemptOnce(claimed);
    } catch (err) {
      // the lease makes it due again: a later pump retries it
      this.log.error({ delivery: claimed.id, err: loggableError(err) }, 'webhook attempt not recorded');
      return null;
    }
  }

  private async attemptOnce(c: ClaimedDelivery): Promise<DeliveryRow | null> {
    if (c.endpoint_status !== 'enabled') {
      return this.record(c, this.clock.now(), {
        status: 'failed',
        responseStatus: null,
        durationMs: 0,
        error: 'the endpoint is disabled',
        nextAttemptAt: null,
      });
    }
    const startedAt = this.clock.now();
    const until = c.previous_secret_valid_until ? new Date(c.previous_secret_valid_until) : null;
    const secrets = [
      c.secret,
      ...(c.previous_secret && until && until > startedAt ? [c.previous_secret] : []),
    ];
    const headers = signedHeaders(secrets, c.event_id, Math.floor(startedAt.getTime() / 1000), c.payload);
    const result = await this.transport.post(c.url, headers, c.payload);
    const now = this.clock.now();
    const ok = result.status !== null && result.status >= 200 && result.status < 300;
    if (ok) {
      return this.record(c, now, {
        status: 'succeeded',
        responseStatus: result.status,
        durationMs: result.durationMs,
        error: null,
        nextAttemptAt: null,
      });
    }
    if (result.status === 410) {
      return this.record(
        c,
        now,
        {
          status: 'failed',
          responseStatus: 410,
          durationMs: result.durationMs,
          error: result.error,
          nextAttemptAt: null,
        },
        'gone',
      );
    }
    const honoured =
      result.status === 429 || result.status === 503 ? retryAfterMs(result.retryAfter, now) : null;
    const next = nextAttemptAt(c.attempt, now, honoured);
    return this.record(c, now, {
      status: next ? 'pending' : 'failed',
      responseStatus: result.status,
      durationMs: result.durationMs,
      error: result.error,
      nextAttemptAt: next,
    });
  }

  /**
   * The outcome in one transaction with what it means for the endpoint: a success clears its
   * failure state; a failure starts it, and 3 days of it (or a 410: `disable`) disables the endpoint,
   * fails its pending deliveries and records `webhook_endpoint.disabled`.
   */
  private async record(
    c: ClaimedDelivery,
    now: Date,
    outcome: AttemptOutcomeRow,
    disable?: DisabledReason,
  ): Promise<DeliveryRow | null> {
    if (outcome.status === 'succeeded' && c.endpoint_status === 'enabled') {
      const [row] = await rows<DeliveryRow>(
        this.em.fork(),
        recordSuccessStatement(c.id, c.attempt, c.endpoint_id, outcome),
      );
      return row ?? null;
    }
    const recorded = await this.em.fork().transactional(async (em) => {
      // the endpoint's row lock orders the outcomes of its attempts running side by side
      const [endpoint] = await rows<{ status: string; failing_since: Date | string | null }>(
        em,
        lockEndpointStatement(c.endpoint_id),
      );
      if (!endpoint) return null; // deleted, its deliveries with it
      let final = outcome;
      let reason: DisabledReason | undefined;
      if (outcome.status !== 'succeeded') {
        if (endpoint.status !== 'enabled') {
          final = { ...outcome, status: 'failed', nextAttemptAt: null };
        } else {
          const since = endpoint.failing_since ? new Date(endpoint.failing_since) : now;
          if (!endpoint.failing_since) await run(em, endpointFailedStatement(c.endpoint_id, now));
          reason =
            disable ?? (now.getTime() - since.getTime() >= FAILING_DISABLES_AFTER_MS ? 'failing' : undefined);
          if (reason) final = { ...outcome, status: 'failed', nextAttemptAt: null };
        }
      }
      const [row] = await rows<DeliveryRow>(em, recordAttemptStatement(c.id, c.attempt, final));
      if (!row) return null; // taken again after the lease
      if (reason) await this.disable(em, c.endpoint_id, reason, now);
      return row;
    });
    if (recorded && recorded.status === 'pending' && recorded.next_attempt_at && this.delayed.enabled) {
      this.delayed.schedule(
        JobName.WebhooksDeliver,
        deliveryJobId(c.endpoint_id, c.event_id, c.attempt + 1),
        { deliveryId: c.id },
        new Date(recorded.next_attempt_at),
      );
    }
    return recorded;
  }

  /** Disables an enabled endpoint, fails its pending deliveries, records the event (inside `em`'s transaction). */
  async disable(em: EntityManager, endpointId: string, reason: DisabledReason, now: Date): Promise<void> {
    const [endpoint] = await rows<EndpointRow>(em, disableEndpointStatement(endpointId, reason, now));
    if (!endpoint) return; // disabled already
    await run(em, failPendingStatement(endpointId, 'the endpoint is disabled'));
    this.outbox.record(em, {
      organizationId: endpoint.organization_id,
      type: 'webhook_endpoint.disabled',
      occurredAt: now,
      subject: { type: 'webhook_endpoint', id: endpoint.id },
      recordVersion: endpoint.version,
      actor: SYSTEM_ACTOR,
      data: { object: toEndpointJson(endpoint), previous: { status: 'enabled', disabledReason: null } },
      changedFields: ['status', 'disabledReason'],
    });
    this.log.warn({ endpoint: endpoint.id, reason }, 'webhook endpoint disabled');
  }
}
