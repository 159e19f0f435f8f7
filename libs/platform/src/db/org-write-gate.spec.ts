import { DependencyUnavailableError } from '../errors/domain-error';
import { orgWritePermits, OrgWriteGate } from './org-write-gate';

describe('orgWritePermits', () => {
  it('is all the pool but two connections, at least one', () => {
    expect(orgWritePermits(10)).toBe(8);
    expect(orgWritePermits(25)).toBe(23);
    expect(orgWritePermits(2)).toBe(1);
    expect(orgWritePermits(1)).toBe(1);
  });
});

describe('OrgWriteGate: writes of one organization at once', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('lets `permits` writes run, queues the next in arrival order, and hands a permit on at release', async () => {
    const gate = new OrgWriteGate(2, 1_500);
    const first = await gate.acquire('org_a');
    await gate.acquire('org_a');
    const order: string[] = [];
    const third = gate.acquire('org_a').then((release) => (order.push('third'), release));
    const fourth = gate.acquire('org_a').then((release) => (order.push('fourth'), release));
    expect(gate.load('org_a')).toEqual({ active: 2, waiting: 2 });
    first();
    first(); // a second release of the same permit changes nothing
    await Promise.resolve();
    expect(order).toEqual(['third']);
    (await third)();
    await fourth;
    expect(order).toEqual(['third', 'fourth']);
    expect(gate.load('org_a')).toEqual({ active: 2, waiting: 0 });
  });

  it('counts each organization apart', async () => {
    const gate = new OrgWriteGate(1, 1_500);
    await gate.acquire('org_a');
    await expect(gate.acquire('org_b')).resolves.toEqual(expect.any(Function));
  });

  it('refuses a write that waited the pool deadline, as the pool would (503), and forgets it', async () => {
    const gate = new OrgWriteGate(1, 1_500);
    const release = await gate.acquire('org_a');
    const late = gate.acquire('org_a');
    jest.advanceTimersByTime(1_500);
    await expect(late).rejects.toBeInstanceOf(DependencyUnavailableError);
    expect(gate.load('org_a')).toEqual({ active: 1, waiting: 0 });
    release();
    expect(gate.load('org_a')).toEqual({ active: 0, waiting: 0 });
  });

  it('does not count the time the process ran late, up to four times the deadline', async () => {
    let late = 0;
    const gate = new OrgWriteGate(1, 1_500, () => late);
    await gate.acquire('org_a');
    const waited = gate.acquire('org_a');
    let refused = false;
    waited.catch(() => (refused = true));
    late = 1_000; // a just-started process: its loop a second behind
    jest.advanceTimersByTime(1_500);
    await Promise.resolve();
    expect(refused).toBe(false);
    jest.advanceTimersByTime(999);
    await Promise.resolve();
    expect(refused).toBe(false);
    jest.advanceTimersByTime(1);
    await expect(waited).rejects.toBeInstanceOf(DependencyUnavailableError);

    const stretched = gate.acquire('org_a');
    const start = Date.now();
    jest.advanceTimersByTime(100);
    late = 1_000_000; // never on time again
    jest.advanceTimersByTime(6_000);
    await expect(stretched).rejects.toBeInstanceOf(DependencyUnavailableError);
    expect(Date.now() - start).toBeLessThanOrEqual(6_100);
  });
});
