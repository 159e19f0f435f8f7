import { Injectable } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';

/** Queue and job names, typed once (a job name has exactly one handler). */
export enum QueueName {
  Maintenance = 'maintenance',
}

export enum JobName {
  PurgeExpiredIdentity = 'identity.purge-expired',
  CheckKeyOwners = 'api-keys.check-owners',
  PurgeIdempotency = 'idempotency.purge-expired',
  OffersTimePassed = 'offers.time-passed',
  RoutingReassignSweep = 'routing.reassign-sweep',
  RoutingReassign = 'routing.reassign',
  DocumentsExpireShares = 'documents.expire-shares',
  ListingsPublish = 'listings.publish',
  ListingsExpireDue = 'listings.expire-due',
  ListingsImportFeeds = 'listings.import-feeds',
  BrochuresExpireDue = 'brochures.expire-due',
  EventsPurge = 'events.purge',
  WebhooksPump = 'webhooks.pump',
  WebhooksDeliver = 'webhooks.deliver',
  WebhooksPurge = 'webhooks.purge',
  SearchRecentIndexes = 'search.recent-indexes',
  MediaCleanStored = 'media.clean-stored',
  CompactLeadCounters = 'crm.compact-lead-counters',
}

export const PERIODIC = Reflector.createDecorator<{ name: JobName; everyMs: number }>();

/**
 * Marks an application-service method `(now: Date) => Promise<summary>` as periodic work: a
 * repeatable BullMQ job in apps/worker with REDIS_URL, an in-process timer in the API without it.
 */
export const Periodic = (name: JobName, everyMs: number) => PERIODIC({ name, everyMs });

export const DELAYED = Reflector.createDecorator<{ name: JobName }>();

/**
 * Marks an application-service method `(data, now: Date) => Promise<summary>` as the handler of a
 * one-off job a context schedules with `DelayedJobs.schedule(name, jobId, data, runAt)`: run by
 * apps/worker at `runAt` with REDIS_URL. Without it nothing runs it: the context's own `@Periodic`
 * sweep over due rows does the work (and is the safety net with Redis too). `data` is the JSON
 * the context scheduled; the handler re-reads its row and is idempotent (a job may run twice).
 */
export const OnDelayedJob = (name: JobName) => DELAYED({ name });

export interface PeriodicJob {
  name: JobName;
  everyMs: number;
  run(now: Date): Promise<unknown>;
}

export interface DelayedJob {
  name: JobName;
  run(data: Record<string, unknown>, now: Date): Promise<unknown>;
}

export class UnknownJobError extends Error {
  constructor(name: string) {
    super(`No handler for job "${name}"`);
  }
}

type Handlers = { periodic: Map<string, PeriodicJob>; delayed: Map<string, DelayedJob> };

/** Finds every `@Periodic` and `@OnDelayedJob` method among the app's providers (one per name). */
@Injectable()
export class PeriodicJobRegistry {
  private handlers?: Handlers;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  /** The periodic jobs (what the schedulers and the in-process timers run). */
  all(): PeriodicJob[] {
    return [...this.load().periodic.values()];
  }

  byName(name: string): PeriodicJob {
    const job = this.load().periodic.get(name);
    if (!job) throw new UnknownJobError(name);
    return job;
  }

  delayed(): DelayedJob[] {
    return [...this.load().delayed.values()];
  }

  /** A job taken off the queue: a periodic name runs with `now`, a delayed one with its data too. */
  run(name: string, data: Record<string, unknown>, now: Date): Promise<unknown> {
    const { periodic, delayed } = this.load();
    const job = periodic.get(name);
    if (job) return job.run(now);
    const oneOff = delayed.get(name);
    if (oneOff) return oneOff.run(data, now);
    return Promise.reject(new UnknownJobError(name));
  }

  private load(): Handlers {
    if (this.handlers) return this.handlers;
    const handlers: Handlers = { periodic: new Map(), delayed: new Map() };
    const taken = (name: string) => {
      if (handlers.periodic.has(name) || handlers.delayed.has(name)) {
        throw new Error(`Job "${name}" has two handlers`);
      }
    };
    const seen = new Set<object>();
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object' || seen.has(instance)) continue;
      seen.add(instance);
      for (const method of this.scanner.getAllMethodNames(Object.getPrototypeOf(instance))) {
        const fn = instance[method];
        if (typeof fn !== 'function') continue;
        const periodic = this.reflector.get(PERIODIC, fn as () => unknown);
        if (periodic) {
          taken(periodic.name);
          handlers.periodic.set(periodic.name, {
            ...periodic,
            run: (now: Date) => (fn as (now: Date) => Promise<unknown>).call(instance, now),
          });
        }
        const delayed = this.reflector.get(DELAYED, fn as () => unknown);
        if (delayed) {
          taken(delayed.name);
          handlers.delayed.set(delayed.name, {
            ...delayed,
            run: (data: Record<string, unknown>, now: Date) =>
              (fn as (data: Record<string, unknown>, now: Date) => Promise<unknown>).call(
                instance,
                data,
                now,
              ),
          });
        }
      }
    }
    this.handlers = handlers;
    return handlers;
  }
}
