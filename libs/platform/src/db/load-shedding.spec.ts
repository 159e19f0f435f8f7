import { AcquireRate, SHED_STALL_MS, shouldShed } from './load-shedding';

describe('load shedding (shouldShed)', () => {
  const limit = 20;
  const t0 = 1_000_000;

  const handingOut = (perSecond: number, until: number): AcquireRate => {
    const rate = new AcquireRate();
    for (let at = until - 1_000 + 1_000 / perSecond; at <= until; at += 1_000 / perSecond) rate.record(at);
    return rate;
  };

  it('never sheds below the queue limit, however stalled the pool', () => {
    expect(shouldShed(limit - 1, limit, new AcquireRate(), t0)).toBe(false);
  });

  it('sheds a long queue when nothing was handed out for the stall time (a frozen server)', () => {
    const rate = handingOut(500, t0);
    expect(shouldShed(limit, limit, rate, t0 + SHED_STALL_MS + 1)).toBe(true);
    expect(shouldShed(limit, limit, new AcquireRate(), t0)).toBe(true);
  });

  it('serves a long queue that moves fast (a connector writing on 32 connections)', () => {
    const rate = handingOut(300, t0);
    expect(shouldShed(22, limit, rate, t0 + 1)).toBe(false);
  });

  it('sheds when the queue would take longer than the budget at the current pace (a held lock)', () => {
    const rate = handingOut(10, t0);
    expect(shouldShed(limit, limit, rate, t0 + 1)).toBe(true); // 20 queued at 10/s: 2 s
    expect(shouldShed(limit, limit, handingOut(40, t0), t0 + 1)).toBe(false); // 0.5 s
  });

  it('counts only the last second of hand-outs', () => {
    const rate = handingOut(100, t0);
    expect(rate.perSecond(t0)).toBe(100);
    expect(rate.perSecond(t0 + 505)).toBe(50);
    expect(rate.last()).toBe(t0);
  });
});
