import { createServer, Server, Socket } from 'node:net';
import { DynamicModule, Global, INestApplicationContext, Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { getQueueToken } from '@nestjs/bullmq';
import { Test } from '@nestjs/testing';
import { type Queue } from 'bullmq';
import {
  AppConfig,
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
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { TestApp } from '../fixtures';

const REDIS_URL = 'redis://127.0.0.1:6379';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
      imports: [WorkerModule.forRoot(config, { queuePrefix })],
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
    expect(job!.opts.delay).toBeGreaterThan(250);
    expect(job!.opts.delay).toBeLessThanOrEqual(300);
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
    const api = await NestFactory.createApplicationContext(
      {
        module: class ApiSide {},
        imports: [
          ConfigModule.forRoot(config({ REDIS_URL })),
          ClockModule.forRoot(clock),
          JobsModule.forRoot({ inProcess: false, queuePrefix }),
        ],
      },
      { logger: false, abortOnError: false },
    );
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
