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
}

export const PERIODIC = Reflector.createDecorator<{ name: JobName; everyMs: number }>();

/**
 * Marks an application-service method `(now: Date) => Promise<summary>` as periodic work: a
 * repeatable BullMQ job in apps/worker with REDIS_URL, an in-process timer in the API without it.
 */
export const Periodic = (name: JobName, everyMs: number) => PERIODIC({ name, everyMs });

export interface PeriodicJob {
  name: JobName;
  everyMs: number;
  run(now: Date): Promise<unknown>;
}

export class UnknownJobError extends Error {
  constructor(name: string) {
    super(`No handler for job "${name}"`);
  }
}

/** Finds every `@Periodic` method among the app's providers. */
@Injectable()
export class PeriodicJobRegistry {
  private jobs?: Map<string, PeriodicJob>;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  all(): PeriodicJob[] {
    return [...this.load().values()];
  }

  byName(name: string): PeriodicJob {
    const job = this.load().get(name);
    if (!job) throw new UnknownJobError(name);
    return job;
  }

  private load(): Map<string, PeriodicJob> {
    if (this.jobs) return this.jobs;
    const jobs = new Map<string, PeriodicJob>();
    const seen = new Set<object>();
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object' || seen.has(instance)) continue;
      seen.add(instance);
      for (const method of this.scanner.getAllMethodNames(Object.getPrototypeOf(instance))) {
        const fn = instance[method];
        if (typeof fn !== 'function') continue;
        const meta = this.reflector.get(PERIODIC, fn as () => unknown);
        if (!meta) continue;
        if (jobs.has(meta.name)) throw new Error(`Job "${meta.name}" has two handlers`);
        jobs.set(meta.name, {
          ...meta,
          run: (now: Date) => (fn as (now: Date) => Promise<unknown>).call(instance, now),
        });
      }
    }
    this.jobs = jobs;
    return jobs;
  }
}
