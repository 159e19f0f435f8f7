import { AcquireRate, SHED_STALL_MS, shouldShed } from './load-shedding';

describe('load shedding (shouldShed)', () => {
  const limit = 20;
  const t0 = 1_000_000;

  /** A pool that handed out `perSecond` connections a second over the second before `until`. */
  const handingOut = (perSecond: number, until: number): AcquireRate => {
    const rate = new AcquireRate();
    for (let at = until - 1_000 + 1_000 / perSecond; at <= until; at += 1_000 / perSecond) rate.record(at);
    return rate;
  };

  it('never sheds below the queue limit, however stalled the pool', () => {
    expect(shouldShed(limit - 1, limit, new AcquireRate(), t0 - 10_000, t0)).toBe(false);
  });

  it('gives a queue that just grew long the stall time before judging it (a burst after an idle spell)', () => {
    const idle = handingOut(1, t0 - 60_000); // the last hand-out a minute ago
    expect(shouldShed(32, limit, idle, t0, t0 + SHED_STALL_MS - 1)).toBe(false);
  });

  it('sheds a long queue when nothing was handed out for the stall time since it grew (a frozen server)', () => {
    const rate = handingOut(500, t0);
    expect(shouldShed(limit, limit, rate, t0, t0 + SHED_STALL_MS + 1)).toBe(true);
    expect(shouldShed(limit, limit, new AcquireRate(), t0, t0 + SHED_STALL_MS)).toBe(true);
  });

  it('serves a long queue that moves fast (a connector writing on 32 connections)', () => {
    const rate = handingOut(300, t0);
    expect(shouldShed(22, limit, rate, t0 - 5_000, t0 + 1)).toBe(false);
    expect(shouldShed(22, limit, rate, t0 - 200, t0 + 1)).toBe(false); // judged since it grew long
  });

  it('sheds when the queue would take longer than the budget at the pace seen since it grew (a held lock)', () => {
    expect(shouldShed(limit, limit, handingOut(10, t0), t0 - 5_000, t0 + 1)).toBe(true); // 2 s
    expect(shouldShed(limit, limit, handingOut(40, t0), t0 - 5_000, t0 + 1)).toBe(false); // 0.5 s
  });

  it('counts the hand-outs since a moment, newest first', () => {
    const rate = handingOut(100, t0);
    expect(rate.countSince(t0 - 1_000)).toBe(100);
    expect(rate.countSince(t0 - 495)).toBe(50);
    expect(rate.last()).toBe(t0);
  });
});
