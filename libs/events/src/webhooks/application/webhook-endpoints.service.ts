import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { v7 as uuidv7 } from 'uuid';
import {
  AppConfig,
  Clock,
  conflict,
  DAY,
  eventActorOf,
  DelayedJobs,
  JobName,
  notFound,
  OutboundError,
  Outbox,
  validationFailed,
  type Principal,
  type Statement,
} from '@app/platform';
import {
  CLAIM_LEASE_MS,
  newWebhookSecret,
  ROTATION_OVERLAP_MS,
  urlProblem,
  WEBHOOK_LIMITS,
} from '../domain/webhook-rules';
import { eventJsonOf, type EventRow } from '../views/webhook-event.view';
import {
  toDeliveryJson,
  toEndpointJson,
  type DeliveryJson,
  type DeliveryRow,
  type EndpointRow,
  type WebhookEndpointJson,
} from '../views/webhook-endpoint.view';
import {
  countEndpointsStatement,
  deleteEndpointStatement,
  deliveriesStatement,
  deliveryStatement,
  endpointsStatement,
  endpointStatement,
  ensureCursorStatement,
  eventByIdStatement,
  insertDeliveriesStatement,
  insertEndpointStatement,
  lastSequenceStatement,
  lockEndpointsStatement,
  retryDeliveryStatement,
  rotateSecretStatement,
  updateEndpointStatement,
} from '../webhooks.sql';
import { deliveryJobId, WebhookDispatcher } from './webhook-dispatcher';
import { WebhookTransport } from './webhook-transport';

export interface NewEndpoint {
  url: string;
  description?: string | null;
  events: string[];
  enabled?: boolean;
}

export interface EndpointChange {
  url?: string;
  description?: string | null;
  events?: string[];
  enabled?: boolean;
}

const endpointNotFound = () => notFound('Webhook endpoint');
const deliveryNotFound = () => notFound('Webhook delivery');
const rows = <T>(em: EntityManager, s: Statement) => em.execute<T[]>(s.sql, s.params);

/**
 * `/v1/webhook-endpoints` (INTERFACES.md "Webhook endpoints"): an organization's receivers (10 at
 * most; the organization's endpoint writes take its advisory lock), their secrets (shown on create
 * and rotation only), a `ping` on demand, the deliveries of the last 30 days and a manual retry.
 * Another organization's endpoint is 404 `Webhook endpoint not found.`.
 */
@Injectable()
export class WebhookEndpointsService {
  constructor(
    private readonly em: EntityManager,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly outbox: Outbox,
    private readonly transport: WebhookTransport,
    private readonly dispatcher: WebhookDispatcher,
    private readonly delayed: DelayedJobs,
  ) {}

  async create(actor: Principal, input: NewEndpoint): Promise<WebhookEndpointJson & { secret: string }> {
    const org = actor.organizationId;
    const url = await this.checkedUrl(input.url);
    return this.em.transactional(async (em) => {
      await rows(em, lockEndpointsStatement(org));
      const [{ n }] = await rows<{ n: number }>(em, countEndpointsStatement(org));
      if (n >= WEBHOOK_LIMITS.endpointsPerOrganization) {
        throw conflict(
          `An organization holds at most ${WEBHOOK_LIMITS.endpointsPerOrganization} webhook endpoints.`,
        );
      }
      const [{ last }] = await rows<{ last: string }>(em, lastSequenceStatement(org));
      await rows(em, ensureCursorStatement(org, last));
      const [row] = await rows<EndpointRow>(
        em,
        insertEndpointStatement({
          id: uuidv7(),
          organizationId: org,
          url,
          description: input.description ?? null,
          events: dedupe(input.events),
          enabled: input.enabled ?? true,
          secret: newWebhookSecret(),
          relayFromSequence: last,
          now: this.clock.now(),
        }),
      );
      return { ...toEndpointJson(row), secret: row.secret };
    });
  }

  async list(actor: Principal): Promise<{ data: WebhookEndpointJson[]; hasMore: boolean }> {
    const found = await rows<EndpointRow>(this.em, endpointsStatement(actor.organizationId));
    return { data: found.map(toEndpointJson), hasMore: false };
  }

  async get(actor: Principal, id: string): Promise<WebhookEndpointJson> {
    return toEndpointJson(await this.endpoint(this.em, actor.organizationId, id));
  }

  /** Given fields replace the stored ones; `enabled: true` clears the failure state, `false` disables (`manual`). */
  async change(actor: Principal, id: string, input: EndpointChange): Promise<WebhookEndpointJson> {
    const org = actor.organizationId;
    const url = input.url !== undefined ? await this.checkedUrl(input.url) : undefined;
    return this.em.transactional(async (em) => {
      await rows(em, lockEndpointsStatement(org));
      const stored = await this.endpoint(em, org, id, true);
      const enabling = input.enabled === true;
      const disabling = input.enabled === false && stored.status === 'enabled';
      // enabled again: the events of its disabled time are not sent (GET /v1/events has them)
      const reenabled = enabling && stored.status === 'disabled';
      const relayFrom = reenabled
        ? (await rows<{ last: string }>(em, lastSequenceStatement(org)))[0].last
        : null;
      const status = input.enabled === undefined ? stored.status : input.enabled ? 'enabled' : 'disabled';
      const [row] = await rows<EndpointRow>(
        em,
        updateEndpointStatement(org, id, {
          url: url ?? stored.url,
          description: input.description !== undefined ? input.description : stored.description,
          events: input.events ? dedupe(input.events) : stored.events,
          status,
          disabledReason: enabling ? null : disabling ? 'manual' : stored.disabled_reason,
          failingSince: enabling ? null : toDate(stored.failing_since),
          relayFromSequence: relayFrom,
          now: this.clock.now(),
        }),
      );
      return toEndpointJson(row);
    });
  }

  /** The endpoint goes with its deliveries (an attempt under way records nothing). */
  async remove(actor: Principal, id: string): Promise<void> {
    const [gone] = await rows<{ id: string }>(this.em, deleteEndpointStatement(actor.organizationId, id));
    if (!gone) throw endpointNotFound();
  }

  /** A new secret; the current one keeps signing (a second signature) for 24 hours. */
  async rotate(actor: Principal, id: string): Promise<{ secret: string; previousSecretValidUntil: string }> {
    const org = actor.organizationId;
    const now = this.clock.now();
    const validUntil = new Date(now.getTime() + ROTATION_OVERLAP_MS);
    return this.em.transactional(async (em) => {
      await this.endpoint(em, org, id, true);
      const [row] = await rows<EndpointRow>(
        em,
        rotateSecretStatement(org, id, newWebhookSecret(), validUntil, now),
      );
      return { secret: row.secret, previousSecretValidUntil: validUntil.toISOString() };
    });
  }

  /**
   * Records a `ping` event (in the log, never relayed to other endpoints) and sends it to this
   * endpoint now; answers the delivery after the attempt (retried on the schedule if it failed).
   */
  async test(actor: Principal, id: string): Promise<DeliveryJson> {
    const org = actor.organizationId;
    const now = this.clock.now();
    const eventId = `evt_${uuidv7()}`;
    const endpoint = await this.em.transactional(async (em) => {
      const row = await this.endpoint(em, org, id, true);
      if (row.status !== 'enabled') throw conflict('The endpoint is disabled; enable it first.');
      this.outbox.record(em, {
        id: eventId,
        organizationId: org,
        type: 'ping',
        occurredAt: now,
        subject: { type: 'webhook_endpoint', id: row.id },
        recordVersion: row.version,
        actor: eventActorOf(actor),
        data: { object: toEndpointJson(row) },
      });
      return row;
    });
    const [event] = await rows<EventRow>(this.em, eventByIdStatement(org, eventId));
    const payload = JSON.stringify(eventJsonOf(event));
    const [made] = await rows<{ id: string }>(
      this.em,
      insertDeliveriesStatement(
        org,
        [{ endpointId: endpoint.id, eventId, eventType: 'ping', payload }],
        now,
        new Date(now.getTime() + CLAIM_LEASE_MS),
        1,
      ),
    );
    const recorded = await this.dispatcher.attempt({
      id: made.id,
      organization_id: org,
      endpoint_id: endpoint.id,
      event_id: eventId,
      event_type: 'ping',
      payload,
      attempt: 1,
      url: endpoint.url,
      endpoint_status: endpoint.status,
      secret: endpoint.secret,
      previous_secret: endpoint.previous_secret,
      previous_secret_valid_until: endpoint.previous_secret_valid_until,
    });
    const [row] = recorded
      ? [recorded]
      : await rows<DeliveryRow>(this.em, deliveryStatement(org, endpoint.id, made.id));
    return toDeliveryJson(row);
  }

  /** The endpoint's deliveries of the last 30 days, newest first, offset paging. */
  async deliveries(
    actor: Principal,
    id: string,
    page: { limit: number; offset: number },
  ): Promise<{ data: DeliveryJson[]; hasMore: boolean; nextOffset: number | null }> {
    const org = actor.organizationId;
    await this.endpoint(this.em, org, id);
    const since = new Date(this.clock.now().getTime() - WEBHOOK_LIMITS.retentionDays * DAY);
    const found = await rows<DeliveryRow>(
      this.em,
      deliveriesStatement(org, id, since, page.limit + 1, page.offset),
    );
    const data = found.slice(0, page.limit).map(toDeliveryJson);
    const hasMore = found.length > page.limit;
    return { data, hasMore, nextOffset: hasMore ? page.offset + data.length : null };
  }

  /** Due now again (pending); 202 with the delivery. A disabled endpoint: 409. */
  async retry(actor: Principal, id: string, deliveryId: string): Promise<DeliveryJson> {
    const org = actor.organizationId;
    const now = this.clock.now();
    const row = await this.em.transactional(async (em) => {
      const endpoint = await this.endpoint(em, org, id);
      const [delivery] = await rows<DeliveryRow>(em, deliveryStatement(org, id, deliveryId));
      if (!delivery) throw deliveryNotFound();
      if (endpoint.status !== 'enabled') throw conflict('The endpoint is disabled; enable it first.');
      const [updated] = await rows<DeliveryRow>(em, retryDeliveryStatement(org, deliveryId, now));
      return updated;
    });
    if (this.delayed.enabled) {
      this.delayed.schedule(
        JobName.WebhooksDeliver,
        deliveryJobId(row.endpoint_id, row.event_id, row.attempt + 1),
        { deliveryId: row.id },
        now,
      );
    }
    return toDeliveryJson(row);
  }

  private async endpoint(em: EntityManager, org: string, id: string, lock = false): Promise<EndpointRow> {
    const [row] = await rows<EndpointRow>(em, endpointStatement(org, id, lock));
    if (!row) throw endpointNotFound();
    return row;
  }

  /**
   * The URL rules, then the outbound guard's (every address of its host public unless
   * OUTBOUND_ALLOW_PRIVATE; a host that does not resolve too): 400 at `url`.
   */
  private async checkedUrl(raw: string): Promise<string> {
    const problem = urlProblem(raw, this.config.webhookAllowInsecure);
    if (problem) throw validationFailed([{ path: 'url', message: problem }]);
    try {
      await this.transport.check(raw, 5_000);
    } catch (err) {
      if (err instanceof OutboundError)
        throw validationFailed([{ path: 'url', message: `url: ${err.message}` }]);
      throw err;
    }
    return raw;
  }
}

const dedupe = (values: string[]): string[] => [...new Set(values)];
const toDate = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));
