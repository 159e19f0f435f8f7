import { MikroORM, RequestContext } from '@mikro-orm/core';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { getQueueToken } from '@nestjs/bullmq';
import { Job, type Queue } from 'bullmq';
import { AccountsService, ApiKeysService } from '@app/identity';
import {
  AppConfig,
  DAY,
  HOUR,
  JobName,
  MaintenanceProcessor,
  PeriodicJobRegistry,
  PeriodicJobScheduler,
  QueueName,
} from '@app/platform';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { childEnv, run, TS_LOADER } from '../child-process';
import { TestApp, uniqueEmail } from '../fixtures';

const REDIS_URL = 'redis://127.0.0.1:6379';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function settled(queue: Queue, id: string): Promise<Job> {
  for (let i = 0; i < 200; i++) {
    const job = await Job.fromId(queue, id);
    if (job?.finishedOn) return job;
    await sleep(50);
  }
  throw new Error(`job ${id} did not finish`);
}

describe('apps/worker on BullMQ', () => {
  let app: INestApplicationContext;
  let queue: Queue;

  beforeAll(async () => {
    const config = AppConfig.fromEnv({
      DATABASE_URL: process.env.DATABASE_URL,
      REDIS_URL,
      LOG_LEVEL: 'silent',
    });
    // a prefix of its own: runs on this machine's shared Redis never see each other's queues
    const queuePrefix = `test-worker-${process.pid}-${Date.now()}`;
    app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config, { queuePrefix }), {
      logger: false,
      abortOnError: false,
    });
    queue = app.get<Queue>(getQueueToken(QueueName.Maintenance));
  });

  afterAll(async () => {
    // stop taking jobs first, so nothing writes to the queue after it is wiped
    try {
      await app.get(MaintenanceProcessor).worker.close();
      await queue.obliterate({ force: true });
    } finally {
      await app.close();
    }
  });

  it('registers each periodic job as one scheduler under its name, also after a restart', async () => {
    const jobs = app.get(PeriodicJobRegistry).all();
    expect(jobs.map((job) => job.name)).toContain(JobName.PurgeExpiredIdentity);
    expect(await queue.getJobScheduler(JobName.PurgeExpiredIdentity)).toMatchObject({
      key: JobName.PurgeExpiredIdentity,
      name: JobName.PurgeExpiredIdentity,
      every: HOUR,
    });
    await app.get(PeriodicJobScheduler).onApplicationBootstrap(); // what a second start does
    expect(await queue.getJobSchedulersCount()).toBe(jobs.length);
  });

  it('schedules every job the API runs in-process without REDIS_URL, and handles every delayed job', async () => {
    const api = await TestApp.start();
    try {
      const names = (registry: PeriodicJobRegistry) =>
        registry
          .all()
          .map((job) => job.name)
          .sort();
      expect(names(app.get(PeriodicJobRegistry))).toEqual(names(api.get(PeriodicJobRegistry)));
      // a context that schedules from the API needs its handler in the worker too
      const delayed = (registry: PeriodicJobRegistry) =>
        registry
          .delayed()
          .map((job) => job.name)
          .sort();
      expect(delayed(app.get(PeriodicJobRegistry))).toEqual(delayed(api.get(PeriodicJobRegistry)));
    } finally {
      await api.stop();
    }
  });

  it('runs IdentityCleanupService.purgeExpired for a job added by name', async () => {
    // the schedulers' first runs start at once; let them finish so they cannot take our row
    for (let i = 0; i < 200; i++) {
      const counts = await queue.getJobCounts('waiting', 'active', 'prioritized');
      if (Object.values(counts).every((n) => n === 0)) break;
      await sleep(50);
    }
    const em = app.get(MikroORM).em;
    const { user } = await RequestContext.create(em, () =>
      app.get(AccountsService).signUp({
        organizationName: 'Worker Agency',
        email: uniqueEmail('worker'),
        password: 'correct horse battery',
        firstName: 'Wo',
        lastName: 'Rker',
      }),
    );
    const sessions = () =>
      em
        .fork()
        .getConnection()
        .execute<{ n: number }[]>('select count(*)::int as n from sessions where user_id = ?', [user.id]);
    await em
      .fork()
      .getConnection()
      .execute('update sessions set expires_at = ? where user_id = ?', [
        new Date(Date.now() - 2 * DAY),
        user.id,
      ]);
    expect(await sessions()).toEqual([{ n: 1 }]);

    const added = await queue.add(JobName.PurgeExpiredIdentity, {});
    const job = await settled(queue, added.id as string);
    expect(job.failedReason).toBeUndefined();
    expect(job.returnvalue).toEqual({ sessions: 1, invitations: expect.any(Number) });
    expect(await sessions()).toEqual([{ n: 0 }]);
  });

  it('runs the key-owner check: a key whose owner left is marked', async () => {
    const em = app.get(MikroORM).em;
    const signedUp = await RequestContext.create(em, () =>
      app.get(AccountsService).signUp({
        organizationName: 'Owner Check Agency',
        email: uniqueEmail('owner'),
        password: 'correct horse battery',
        firstName: 'Ow',
        lastName: 'Ner',
      }),
    );
    const actor = {
      kind: 'session' as const,
      sessionId: 'test',
      userId: signedUp.user.id,
      organizationId: signedUp.organization.id,
      role: 'admin' as const,
      planActive: true,
      expiresAt: new Date(Date.now() + HOUR),
    };
    const key = await RequestContext.create(em, () =>
      app.get(ApiKeysService).create(actor, { name: 'owner check', scopes: ['crm:read'] }),
    );
    // the owner leaves outside the members route (which marks keys itself): only the job notices
    await em.fork().getConnection().execute('delete from memberships where user_id = ?', [signedUp.user.id]);
    const ownerLeftAt = async () =>
      (
        await em
          .fork()
          .getConnection()
          .execute<{ owner_left_at: Date | null }[]>('select owner_left_at from api_keys where id = ?', [
            key.id,
          ])
      )[0].owner_left_at;
    expect(await ownerLeftAt()).toBeNull();

    const added = await queue.add(JobName.CheckKeyOwners, {});
    const job = await settled(queue, added.id as string);
    expect(job.failedReason).toBeUndefined();
    expect(job.returnvalue.marked).toBeGreaterThanOrEqual(1);
    expect(await ownerLeftAt()).not.toBeNull();
  });

  it('fails a job whose name has no handler instead of completing it', async () => {
    const added = await queue.add('no.such-job', {});
    const job = await settled(queue, added.id as string);
    expect(job.failedReason).toMatch(/No handler for job "no.such-job"/);
  });
});

describe('apps/worker without REDIS_URL', () => {
  it('exits 1 saying the API runs the jobs in-process', async () => {
    const res = await run(
      'node',
      [...TS_LOADER, 'apps/worker/src/main.ts'],
      childEnv({ REDIS_URL: undefined, DATABASE_URL: process.env.DATABASE_URL }),
    );
    expect(res.status).toBe(1);
    expect(res.stderr.trim()).toMatch(/^REDIS_URL[^\n]*in-process[^\n]*$/);
  });
});
