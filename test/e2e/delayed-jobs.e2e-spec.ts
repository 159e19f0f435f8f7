import { connect, createServer, Server, Socket } from 'node:net';
import { DynamicModule, Global, INestApplicationContext, Injectable, Logger, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { getQueueToken } from '@nestjs/bullmq';
import { Test } from '@nestjs/testing';
import { type Queue } from 'bullmq';
import {
  AppConfig,
  BullmqJobsModule,
  Clock,
  ConfigModule,
  DelayedJobs,
  JobName,
  JobsModule,
  MaintenanceProcessor,
  ManualClock,
  OnDelayedJob,
  Periodic,
  PeriodicJobRegistry,
  QueueName,
  queueJobId,
} from '@app/platform';
import { TestApp } from '../fixtures';

const REDIS_URL = 'redis://127.0.0.1:6379';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The worker's clock: real time. */
class RealClock extends Clock {
  now(): Date {
    return new Date();
  }
}

/** A handler as a context declares one (the routing context's reassignment, say). */
@Injectable()
class ReassignProbe {
  readonly runs: { data: Record<string, unknown>; now: Date; at: number }[] = [];

  @OnDelayedJob(JobName.RoutingReassign)
  async reassign(data: Record<string, unknown>, now: Date): Promise<{ decisionId: unknown }> {
    this.runs.push({ data, now, at: Date.now() });
    return { decisionId: data.decisionId };
  }

  ranFor(decisionId: string) {
    return this.runs.filter((run) => run.data.decisionId === decisionId);
  }

  async waitFor(decisionId: string, timeoutMs = 5_000) {
    for (let waited = 0; waited < timeoutMs; waited += 25) {
      const runs = this.ranFor(decisionId);
      if (runs.length > 0) return runs;
      await sleep(25);
    }
    throw new Error(`no run for ${decisionId}`);
  }
}

@Module({})
class TestWorkerModule {
  static forRoot(config: AppConfig, queuePrefix: string): DynamicModule {
    return {
      module: TestWorkerModule,
      // the platform's worker side only: the real contexts' handlers (routing's) stay out
      imports: [
        ConfigModule.forRoot(config),
        ClockModule.forRoot(new RealClock()),
        BullmqJobsModule.forRoot({ prefix: queuePrefix }),
      ],
      providers: [ReassignProbe],
    };
  }
}

/** The API's side with REDIS_URL, without the rest of the API: a clock and the jobs module. */
@Global()
@Module({})
class ClockModule {
  static forRoot(clock: Clock): DynamicModule {
    return { module: ClockModule, providers: [{ provide: Clock, useValue: clock }], exports: [Clock] };
  }
}

const config = (env: NodeJS.ProcessEnv) =>
  AppConfig.fromEnv({ DATABASE_URL: process.env.DATABASE_URL, LOG_LEVEL: 'silent', ...env });

/** The API's side with REDIS_URL (producer only): the config, a clock and the jobs module. */
const apiSide = (redisUrl: string, queuePrefix: string, clock: Clock = new ManualClock()) =>
  NestFactory.createApplicationContext(
    {
      module: class ApiSide {},
      imports: [
        ConfigModule.forRoot(config({ REDIS_URL: redisUrl })),
        ClockModule.forRoot(clock),
        JobsModule.forRoot({ inProcess: false, queuePrefix }),
      ],
    },
    { logger: false, abortOnError: false },
  );

/**
 * A TCP proxy to the machine's Redis that can stop passing commands on, as a paused (SIGSTOP) or
 * saturated Redis does: what is sent meanwhile is held and passed on at resume, in order.
 */
async function pausableRedis() {
  let paused = false;
  const links: { held: Buffer[]; up: Socket; down: Socket }[] = [];
  const server = createServer((down) => {
    const up = connect(6379, '127.0.0.1');
    const link = { held: [] as Buffer[], up, down };
    links.push(link);
    down.on('data', (chunk: Buffer) => (paused ? link.held.push(chunk) : up.write(chunk)));
    up.on('data', (chunk: Buffer) => down.write(chunk));
    for (const socket of [up, down]) {
      socket
        .on('error', () => undefined)
        .on('close', () => {
          up.destroy();
          down.destroy();
        });
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `redis://127.0.0.1:${(server.address() as { port: number }).port}`,
    pause: () => (paused = true),
    resume: () => {
      paused = false;
      for (const link of links) for (const chunk of link.held.splice(0)) link.up.write(chunk);
    },
    close: async () => {
      for (const { up, down } of links) {
        up.destroy();
        down.destroy();
      }
      await new Promise((done) => server.close(done));
    },
  };
}

const NOT_SCHEDULED = /^delayed job not scheduled \(Redis\)/;
const SCHEDULED_AGAIN = 'delayed jobs are scheduled again';
/** The calls of a Logger method spy whose message matches. */
const logged = (spy: jest.SpyInstance, message: RegExp | string) =>
  spy.mock.calls.filter(([, text]) =>
    typeof message === 'string' ? text === message : message.test(String(text)),
  );

let unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeAll(() => process.on('unhandledRejection', onUnhandled));
afterAll(() => process.off('unhandledRejection', onUnhandled));
beforeEach(() => (unhandled = []));
afterEach(() => expect(unhandled).toEqual([]));

let ids = 0;
const decisionId = () => `d-${process.pid}-${Date.now()}-${++ids}`;

describe('delayed jobs on BullMQ', () => {
  const queuePrefix = `test-delayed-${process.pid}-${Date.now()}`;
  let worker: INestApplicationContext;
  let queue: Queue;
  let probe: ReassignProbe;

  beforeAll(async () => {
    worker = await NestFactory.createApplicationContext(
      TestWorkerModule.forRoot(config({ REDIS_URL }), queuePrefix),
      { logger: false, abortOnError: false },
    );
    queue = worker.get<Queue>(getQueueToken(QueueName.Maintenance));
    probe = worker.get(ReassignProbe);
  });

  afterAll(async () => {
    try {
      await worker.get(MaintenanceProcessor).worker.close();
      await queue.obliterate({ force: true });
    } finally {
      await worker.close();
    }
  });

  it('finds the handler beside the periodic jobs', () => {
    const registry = worker.get(PeriodicJobRegistry);
    expect(registry.delayed().map((job) => job.name)).toEqual([JobName.RoutingReassign]);
    expect(registry.all().map((job) => job.name)).not.toContain(JobName.RoutingReassign);
    expect(worker.get(DelayedJobs).enabled).toBe(true);
  });

  it('runs the handler with its data after the delay, not before', async () => {
    const id = decisionId();
    const start = Date.now();
    worker
      .get(DelayedJobs)
      .schedule(
        JobName.RoutingReassign,
        `reassign:${id}`,
        { decisionId: id, attempt: 1 },
        new Date(start + 300),
      );
    expect(Date.now() - start).toBeLessThan(50); // nothing awaited

    await sleep(150);
    expect(probe.ranFor(id)).toEqual([]);
    const [run] = await probe.waitFor(id);
    expect(run.at - start).toBeGreaterThanOrEqual(295);
    expect(run.data).toEqual({ decisionId: id, attempt: 1 });
    expect(run.now).toBeInstanceOf(Date);

    const job = await queue.getJob(queueJobId(`reassign:${id}`));
    expect(job).toMatchObject({ name: JobName.RoutingReassign, opts: { delay: expect.any(Number) } });
    // the delay aims at the run time from when the job was added, however slow the add
    const aimedAt = job!.timestamp + job!.opts.delay!;
    expect(aimedAt).toBeGreaterThanOrEqual(start + 300);
    expect(aimedAt - (start + 300)).toBeLessThan(100);
  });

  it('runs a job scheduled twice under the same jobId once', async () => {
    const id = decisionId();
    const jobs = worker.get(DelayedJobs);
    const runAt = new Date(Date.now() + 300);
    jobs.schedule(JobName.RoutingReassign, `reassign:${id}`, { decisionId: id, attempt: 1 }, runAt);
    jobs.schedule(JobName.RoutingReassign, `reassign:${id}`, { decisionId: id, attempt: 2 }, runAt);
    await probe.waitFor(id);
    await sleep(700);
    expect(probe.ranFor(id).map((run) => run.data.attempt)).toEqual([1]);
  });

  it('runs a job whose time has already passed at once', async () => {
    const id = decisionId();
    worker
      .get(DelayedJobs)
      .schedule(JobName.RoutingReassign, `reassign:${id}`, { decisionId: id }, new Date(Date.now() - 60_000));
    const [run] = await probe.waitFor(id, 2_000);
    expect(run.data).toEqual({ decisionId: id });
  });

  it('cancel drops a job that has not run yet', async () => {
    const id = decisionId();
    const jobs = worker.get(DelayedJobs);
    jobs.schedule(JobName.RoutingReassign, `reassign:${id}`, { decisionId: id }, new Date(Date.now() + 500));
    for (let i = 0; i < 40 && !(await queue.getJob(queueJobId(`reassign:${id}`))); i++) await sleep(25);
    jobs.cancel(`reassign:${id}`);
    for (let i = 0; i < 40 && (await queue.getJob(queueJobId(`reassign:${id}`))); i++) await sleep(25);
    expect(await queue.getJob(queueJobId(`reassign:${id}`))).toBeUndefined();
    await sleep(700);
    expect(probe.ranFor(id)).toEqual([]);
  });

  it("the API's side (JobsModule without in-process jobs) only produces: the worker runs the job", async () => {
    const clock = new ManualClock(); // the delay counts from the injected clock
    const api = await apiSide(REDIS_URL, queuePrefix, clock);
    try {
      expect(() => api.get(MaintenanceProcessor)).toThrow(); // no worker in the API
      const id = decisionId();
      const start = Date.now();
      api
        .get(DelayedJobs)
        .schedule(
          JobName.RoutingReassign,
          `reassign:${id}`,
          { decisionId: id },
          new Date(clock.now().getTime() + 300),
        );
      const [run] = await probe.waitFor(id);
      expect(run.at - start).toBeGreaterThanOrEqual(295);
      expect(run.data).toEqual({ decisionId: id });
    } finally {
      const closing = Date.now();
      await api.close(); // its queue and connection close with it
      expect(Date.now() - closing).toBeLessThan(1_000);
    }
  });

  it('with Redis paused: schedule returns at once, gives up within its bound, logs once, and works again after', async () => {
    const redis = await pausableRedis();
    const errors = jest.spyOn(Logger.prototype, 'error');
    const warnings = jest.spyOn(Logger.prototype, 'warn');
    const api = await apiSide(redis.url, queuePrefix, new ManualClock());
    try {
      const jobs = api.get(DelayedJobs);
      const before = decisionId();
      jobs.schedule(JobName.RoutingReassign, `reassign:${before}`, { decisionId: before }, new Date(0));
      await probe.waitFor(before); // connected and scheduling

      redis.pause();
      const start = Date.now();
      for (let i = 0; i < 5; i++) {
        const id = decisionId();
        jobs.schedule(JobName.RoutingReassign, `reassign:${id}`, { decisionId: id }, new Date(0));
      }
      expect(Date.now() - start).toBeLessThan(50);
      while (logged(errors, NOT_SCHEDULED).length === 0 && Date.now() - start < 3_000) await sleep(10);
      expect(Date.now() - start).toBeLessThan(1_000); // REDIS_COMMAND_TIMEOUT_MS per command
      await sleep(300);
      const failures = logged(errors, NOT_SCHEDULED);
      expect(failures).toHaveLength(1); // once for the whole outage
      expect(failures[0][0]).toMatchObject({
        job: JobName.RoutingReassign,
        err: { name: expect.any(String) },
      });
      expect(JSON.stringify(failures[0][0])).not.toContain('decisionId'); // no data in the log

      redis.resume();
      const after = decisionId();
      jobs.schedule(JobName.RoutingReassign, `reassign:${after}`, { decisionId: after }, new Date(0));
      await probe.waitFor(after);
      for (let i = 0; i < 40 && logged(warnings, SCHEDULED_AGAIN).length === 0; i++) await sleep(25);
      expect(logged(warnings, SCHEDULED_AGAIN)).toEqual([
        [{ skipped: 5, seconds: expect.any(Number) }, SCHEDULED_AGAIN],
      ]);
    } finally {
      errors.mockRestore();
      warnings.mockRestore();
      await api.close();
      await redis.close();
    }
  });

  it('stops within its bounds while Redis is paused', async () => {
    const redis = await pausableRedis();
    const api = await apiSide(redis.url, queuePrefix);
    try {
      const id = decisionId();
      api
        .get(DelayedJobs)
        .schedule(JobName.RoutingReassign, `reassign:${id}`, { decisionId: id }, new Date(0));
      await probe.waitFor(id);
      redis.pause();
      api
        .get(DelayedJobs)
        .schedule(JobName.RoutingReassign, `reassign:${id}-2`, { decisionId: id }, new Date(0));
    } finally {
      const closing = Date.now();
      await api.close();
      expect(Date.now() - closing).toBeLessThan(2_000);
      await redis.close();
    }
  });
});

describe('DelayedJobs in the API', () => {
  it('without REDIS_URL is disabled and does nothing, without throwing', async () => {
    const t = await TestApp.start();
    try {
      const jobs = t.get(DelayedJobs);
      expect(jobs.enabled).toBe(false);
      expect(() =>
        jobs.schedule(JobName.RoutingReassign, 'reassign:x', { decisionId: 'x' }, new Date()),
      ).not.toThrow();
      expect(() => jobs.cancel('reassign:x')).not.toThrow();
    } finally {
      await t.stop();
    }
  });

  const unreachable = async (redisUrl: string) => {
    const t = await TestApp.start({ env: { REDIS_URL: redisUrl } });
    const errors = jest.spyOn(Logger.prototype, 'error');
    const jobs = t.get(DelayedJobs);
    expect(jobs.enabled).toBe(true);
    const start = Date.now();
    for (let i = 0; i < 20; i++) {
      jobs.schedule(
        JobName.RoutingReassign,
        `reassign:u${i}`,
        { decisionId: `u${i}` },
        new Date(Date.now() + 60_000),
      );
    }
    jobs.cancel('reassign:u0');
    expect(Date.now() - start).toBeLessThan(50);
    await sleep(100);
    const stopping = Date.now();
    await t.stop(); // what is under way gives up within its bounds
    expect(Date.now() - stopping).toBeLessThan(3_000);
    expect(logged(errors, NOT_SCHEDULED)).toHaveLength(1);
    errors.mockRestore();
  };

  it('with Redis down (a closed port): schedule returns at once and never throws', async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const { port } = closed.address() as { port: number };
    await new Promise((done) => closed.close(done));
    await unreachable(`redis://127.0.0.1:${port}`);
  });

  it('with a Redis that does not answer (paused): schedule returns at once and never throws', async () => {
    const held: Socket[] = [];
    const silent: Server = createServer((socket) => held.push(socket.on('error', () => undefined)));
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    const { port } = silent.address() as { port: number };
    try {
      await unreachable(`redis://127.0.0.1:${port}`);
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise((done) => silent.close(done));
    }
  });
});

describe('job handlers', () => {
  @Injectable()
  class PeriodicPurge {
    @Periodic(JobName.RoutingReassign, 30_000)
    async sweep(): Promise<void> {}
  }

  it('refuse a name with both a periodic and a delayed handler', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [ClockModule.forRoot(new ManualClock()), JobsModule.forRoot({ inProcess: true })],
      providers: [PeriodicPurge, ReassignProbe],
    }).compile();
    try {
      expect(() => moduleRef.get(PeriodicJobRegistry).all()).toThrow(
        `Job "${JobName.RoutingReassign}" has two handlers`,
      );
    } finally {
      await moduleRef.close();
    }
  });
});
