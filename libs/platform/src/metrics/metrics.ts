import { MikroORM } from '@mikro-orm/core';
import type { AbstractSqlConnection } from '@mikro-orm/postgresql';
import { Injectable, Optional } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { AppConfig } from '../config/app-config';

/** What knex's (tarn) pool tells about itself; read on scrape only. */
interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

/**
 * The process's Prometheus metrics, in a registry of its own (two apps in one test process never
 * share counters). Counting is a counter increment; nothing is exported unless `GET /metrics`
 * is served (METRICS_ENABLED or METRICS_PORT), and only then are process metrics collected.
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();
  /** True when someone may scrape: the HTTP hook is installed only then. */
  readonly served: boolean;

  /** Its `_count` is the request count: one observation per answer is all a request costs. */
  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request arriving to the answer sent (its _count: requests answered), by method, route template and status class.',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly keyCacheLookups = new Counter({
    name: 'api_key_cache_lookups_total',
    help: 'API key cache lookups at the door, by result (hit or miss).',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });

  readonly rateLimitRefusals = new Counter({
    name: 'rate_limit_refusals_total',
    help: 'Calls refused 429 RATE_LIMITED, by the window that freed last (short, medium, long, shared).',
    labelNames: ['window'] as const,
    registers: [this.registry],
  });

  readonly rateLimitFallbacks = new Counter({
    name: 'rate_limit_store_fallbacks_total',
    help: 'Calls counted in this process because Redis did not answer within 250 ms (shared counters unavailable).',
    registers: [this.registry],
  });

  readonly idempotencyReplays = new Counter({
    name: 'idempotency_replays_total',
    help: 'Requests answered by replaying a stored answer for their Idempotency-Key.',
    registers: [this.registry],
  });

  readonly jobRuns = new Counter({
    name: 'job_runs_total',
    help: 'Periodic job runs in this process, by job name.',
    labelNames: ['job'] as const,
    registers: [this.registry],
  });

  readonly jobFailures = new Counter({
    name: 'job_failures_total',
    help: 'Periodic job runs that failed, by job name.',
    labelNames: ['job'] as const,
    registers: [this.registry],
  });

  constructor(config: AppConfig, @Optional() orm?: MikroORM) {
    this.served = config.metricsEnabled || config.metricsPort !== null;
    // known label values start at 0, so a scrape shows the series before the first event
    for (const result of ['hit', 'miss']) this.keyCacheLookups.inc({ result }, 0);
    for (const window of ['short', 'medium', 'long']) this.rateLimitRefusals.inc({ window }, 0);
    if (orm) this.poolGauge(orm);
    if (this.served) collectDefaultMetrics({ register: this.registry });
  }

  /** One run of a periodic job, counted whatever its end. */
  async countJob<T>(name: string, run: () => Promise<T>): Promise<T> {
    this.jobRuns.inc({ job: name });
    try {
      return await run();
    } catch (err) {
      this.jobFailures.inc({ job: name });
      throw err;
    }
  }

  /** The Prometheus text format of every metric. */
  scrape(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private poolGauge(orm: MikroORM): void {
    const pool = (): TarnPool | undefined => {
      const knex = (orm.em.getConnection() as AbstractSqlConnection).getKnex() as unknown as {
        client?: { pool?: TarnPool };
      };
      return knex.client?.pool;
    };
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database pool connections: total (open), idle, and waiting (acquires queued for one).',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const p = pool();
        if (!p) return;
        const used = p.numUsed();
        const idle = p.numFree();
        this.set({ state: 'total' }, used + idle);
        this.set({ state: 'idle' }, idle);
        this.set({ state: 'waiting' }, p.numPendingAcquires());
      },
    });
  }
}
