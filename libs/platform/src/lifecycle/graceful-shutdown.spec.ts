import { EventEmitter } from 'node:events';
import { type INestApplicationContext, Logger } from '@nestjs/common';
import { stopOnSignals } from './graceful-shutdown';

/** An app whose close() resolves when the test says so; the order of steps is written down. */
function harness(deadlineMs = 10_000) {
  const steps: string[] = [];
  const exits: number[] = [];
  let closed!: (err?: Error) => void;
  const app = {
    close: () =>
      new Promise<void>((resolve, reject) => {
        steps.push('close');
        closed = (err) => (err ? reject(err) : resolve());
      }),
  } as unknown as INestApplicationContext;
  const signals = new EventEmitter();
  signals.on('SIGTERM', () => steps.push('a listener of a library'));
  stopOnSignals(
    app,
    {
      stopping: (signal) => steps.push(`stopping ${signal}`),
      drain: async () => {
        steps.push('drain');
        return { inFlight: 3, answered: 3, cut: 0 };
      },
      stopped: (report) => steps.push(`stopped ${JSON.stringify({ ...report, durationMs: 'n' })}`),
    },
    { deadlineMs, exit: (code) => exits.push(code), signals },
  );
  return { steps, exits, signals, close: (err?: Error) => closed(err) };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('stopOnSignals', () => {
  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(true));
  afterEach(() => jest.useRealTimers());

  it('drains, closes the app, says how it went and exits 0; a library’s own listener is gone', async () => {
    const h = harness();
    h.signals.emit('SIGTERM', 'SIGTERM');
    await flush();
    h.close();
    await flush();
    expect(h.steps).toEqual([
      'stopping SIGTERM',
      'drain',
      'close',
      'stopped {"signal":"SIGTERM","durationMs":"n","inFlight":3,"answered":3,"cut":0}',
    ]);
    expect(h.exits).toEqual([0]);
  });

  it('exits 1 at once on a second signal', async () => {
    const h = harness();
    h.signals.emit('SIGINT', 'SIGINT');
    await flush();
    h.signals.emit('SIGTERM', 'SIGTERM');
    expect(h.exits).toEqual([1]);
  });

  it('exits 1 when the app is not closed by the deadline', async () => {
    jest.useFakeTimers();
    const h = harness(10_000);
    h.signals.emit('SIGTERM', 'SIGTERM');
    await jest.advanceTimersByTimeAsync(9_999);
    expect(h.exits).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(h.exits).toEqual([1]);
  });

  it('exits 1 when closing fails', async () => {
    const h = harness();
    h.signals.emit('SIGTERM', 'SIGTERM');
    await flush();
    h.close(new Error('pool would not close'));
    await flush();
    expect(h.exits).toEqual([1]);
    expect(h.steps.some((step) => step.startsWith('stopped'))).toBe(false);
  });
});
