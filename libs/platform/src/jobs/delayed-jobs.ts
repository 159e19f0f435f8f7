import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { Clock } from '../clock/clock';
import { loggableError } from '../errors/loggable-error';
import { REDIS_COMMAND_TIMEOUT_MS } from '../http/rate-limit/rate-limit.store';
import { JobName, QueueName } from './periodic';

/** How long a scheduling waits, in the background, for a Redis connection that is not up yet. */
export const DELAYED_JOB_READY_WAIT_MS = 1_000;

/** What BullMQ keeps of a delayed job once it ran (the same as the periodic jobs). */
export const DELAYED_JOB_OPTIONS = { removeOnComplete: 100, removeOnFail: 500 } as const;

/** Milliseconds from `now` until `runAt`; a time already passed runs at once. */
export const delayUntil = (runAt: Date, now: Date): number => Math.max(0, runAt.getTime() - now.getTime());

/**
 * The BullMQ job id of a context's job id. BullMQ refuses a `:` in a custom id (and an integer id,
 * which its own ids use): `%`, `:` and `#` are escaped, so two different ids never meet, and an id
 * made of digits only gets a `#` in front.
 */
export const queueJobId = (jobId: string): string => {
  const escaped = jobId.replace(/[%:#]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return /^\d+$/.test(escaped) ? `#${escaped}` : escaped;
};

/**
 * The port a context injects to run one piece of work later (`@OnDelayedJob(name)` handles it).
 * `schedule` returns at once and never throws: with REDIS_URL it adds a delayed BullMQ job in the
 * background (one job per `jobId`: scheduling the same id again while it is kept does nothing);
 * without it, or when Redis does not answer, nothing is scheduled. So the context keeps the truth in
 * its rows and sweeps the due ones with a `@Periodic` job; a delayed job only makes it punctual.
 * `data` travels as JSON (ids and ISO strings; a Date comes back a string): keep it to ids.
 */
export abstract class DelayedJobs {
  /** False without REDIS_URL: nothing will run a scheduled job, the context's sweep must. */
  abstract readonly enabled: boolean;
  abstract schedule(name: JobName, jobId: string, data: Record<string, unknown>, runAt: Date): void;
  /** Best effort: drops the job if it has not started; a job that runs anyway must find nothing to do. */
  abstract cancel(jobId: string): void;
}

/** Single-node mode (no REDIS_URL): nothing is queued, the context's periodic sweep runs due rows. */
@Injectable()
export class InProcessDelayedJobs extends DelayedJobs {
  readonly enabled = false;
  schedule(): void {}
  cancel(): void {}
}

/**
 * With REDIS_URL (the API and apps/worker): a producer-only maintenance queue on its own Redis
 * connection, opened at the first `schedule`. Bounded like the rate limiter: no offline queue, each
 * command given up after REDIS_COMMAND_TIMEOUT_MS, a connection not up within
 * DELAYED_JOB_READY_WAIT_MS skipped. A failure is logged once when the failures start (the job's
 * name, the error's class: no data) and once when scheduling works again. Built by JobsModule.
 */
export class BullmqDelayedJobs extends DelayedJobs implements OnApplicationShutdown {
  readonly enabled = true;
  private readonly log = new Logger('Jobs');
  private redis?: Redis;
  private queue?: Queue;
  private waiting?: Promise<boolean>;
  private readonly pending = new Set<Promise<void>>();
  private failing: { since: number; skipped: number } | null = null;
  private closed = false;

  constructor(
    private readonly redisUrl: string,
    private readonly clock: Clock,
    private readonly prefix?: string,
  ) {
    super();
  }

  schedule(name: JobName, jobId: string, data: Record<string, unknown>, runAt: Date): void {
    this.background(name, async (queue) => {
      const delay = delayUntil(runAt, this.clock.now()); // counted once Redis is there
      await queue.add(name, data, { jobId: queueJobId(jobId), delay, ...DELAYED_JOB_OPTIONS });
    });
  }

  cancel(jobId: string): void {
    this.background('cancel', async (queue) => {
      await queue.remove(queueJobId(jobId));
    });
  }

  /** Waits for what is under way (each step bounded), then closes the queue and its connection. */
  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.pending]);
    await this.queue?.close().catch(() => undefined);
    this.redis?.disconnect();
  }

  private background(what: string, work: (queue: Queue) => Promise<void>): void {
    if (this.closed) {
      this.log.warn({ job: what }, 'delayed job not scheduled: the app is stopping');
      return;
    }
    const done = this.producer()
      .then(async (queue) => {
        if (!queue) throw new RedisNotReady();
        await work(queue);
        this.succeeded();
      })
      .catch((err: unknown) => this.failed(what, err))
      .finally(() => this.pending.delete(done));
    this.pending.add(done);
  }

  /** The queue once its connection is up; undefined when it does not come up in time. */
  private async producer(): Promise<Queue | undefined> {
    if (!this.redis) {
      this.redis = new Redis(this.redisUrl, {
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
        commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
        connectTimeout: DELAYED_JOB_READY_WAIT_MS,
      });
      // connection errors surface as failed commands; the client reconnects by itself
      this.redis.on('error', () => undefined);
    }
    if (!(await this.ready(this.redis))) return undefined;
    if (!this.queue) {
      const queue = new Queue(QueueName.Maintenance, {
        connection: this.redis,
        ...(this.prefix ? { prefix: this.prefix } : {}),
      });
      queue.on('error', () => undefined);
      // BullMQ keeps a failed first handshake for good: the next scheduling starts a new queue
      queue.waitUntilReady().catch(() => {
        if (this.queue === queue) this.queue = undefined;
        void queue.close().catch(() => undefined);
      });
      this.queue = queue;
    }
    return this.queue;
  }

  /** One shared, bounded wait for the connection (callers never pile listeners on the client). */
  private ready(redis: Redis): Promise<boolean> {
    if (redis.status === 'ready') return Promise.resolve(true);
    this.waiting ??= new Promise<boolean>((resolve) => {
      const done = (up: boolean) => {
        clearTimeout(timer);
        redis.off('ready', onReady);
        this.waiting = undefined;
        resolve(up);
      };
      const onReady = () => done(true);
      const timer = setTimeout(() => done(false), DELAYED_JOB_READY_WAIT_MS);
      redis.once('ready', onReady);
    });
    return this.waiting;
  }

  private succeeded(): void {
    if (!this.failing) return;
    const { since, skipped } = this.failing;
    this.failing = null;
    this.log.warn(
      { skipped, seconds: Math.round((Date.now() - since) / 1000) },
      'delayed jobs are scheduled again',
    );
  }

  private failed(what: string, err: unknown): void {
    if (this.failing) {
      this.failing.skipped++;
      return;
    }
    this.failing = { since: Date.now(), skipped: 1 };
    this.log.error(
      { job: what, err: loggableError(err) },
      'delayed job not scheduled (Redis); the context sweep runs it when due',
    );
  }
}

class RedisNotReady extends Error {
  constructor() {
    super(`Redis did not answer within ${DELAYED_JOB_READY_WAIT_MS} ms`);
  }
}
