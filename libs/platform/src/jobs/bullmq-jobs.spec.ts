import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import type { Clock } from '../clock/clock';
import { MaintenanceProcessor, SLOW_JOB_MS } from './bullmq-jobs.module';
import type { PeriodicJobRegistry } from './periodic';

describe('MaintenanceProcessor: a slow job is logged with its duration', () => {
  const processorTaking = (ms: number) => {
    const registry = {
      run: () => new Promise((resolve) => setTimeout(() => resolve('done'), ms)),
    } as unknown as PeriodicJobRegistry;
    return new MaintenanceProcessor(registry, { now: () => new Date() } as Clock);
  };

  beforeEach(() => jest.useFakeTimers());
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it(`logs a job that ran longer than ${SLOW_JOB_MS} ms at info, and none that ran shorter`, async () => {
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    const slow = processorTaking(SLOW_JOB_MS + 500).process({ name: 'crm.compact-lead-counters' } as Job);
    await jest.advanceTimersByTimeAsync(SLOW_JOB_MS + 500);
    await expect(slow).resolves.toBe('done');
    expect(log).toHaveBeenCalledWith(
      { job: 'crm.compact-lead-counters', durationMs: expect.any(Number) },
      'slow job',
    );
    log.mockClear();
    const quick = processorTaking(10).process({ name: 'events.purge' } as Job);
    await jest.advanceTimersByTimeAsync(10);
    await quick;
    expect(log).not.toHaveBeenCalled();
  });
});
