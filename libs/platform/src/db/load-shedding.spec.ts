import {
  AcquireRate,
  LOOP_LAG_MS,
  LOOP_TICK_MS,
  LoopClock,
  SHED_PACE_SPAN_MS,
  SHED_PACE_WINDOW_MS,
  SHED_STALL_MS,
  SHED_WAIT_BUDGET_MS,
  shouldShed,
} from './load-shedding';

describe('load shedding (shouldShed)', () => {
  const limit = 20;
  const t0 = 1_000_000;

  /** A pool that handed out `perSecond` connections a second over the second before `until`. */
  const handingOut = (perSecond: number, until: number, rate = new AcquireRate()): AcquireRate => {
    for (let at = until - 1_000 + 1_000 / perSecond; at <= until + 1e-9; at += 1_000 / perSecond)
      rate.record(at);
    return rate;
  };

  it('never sheds below the queue limit, however stalled the pool', () => {
    expect(shouldShed(limit - 1, limit, new AcquireRate(), t0 - 10_000, t0)).toBe(false);
  });

  it('gives a burst after an idle spell the stall time while the pool opens connections', () => {
    const idle = handingOut(1, t0 - 60_000); // the last hand-out a minute ago
    expect(shouldShed(300, limit, idle, t0, t0 + SHED_STALL_MS - 1)).toBe(false);
    expect(shouldShed(300, limit, new AcquireRate(), t0, t0 + SHED_STALL_MS - 1)).toBe(false);
  });

  it('sheds a long queue when nothing was handed out for the stall time (a frozen server)', () => {
    const rate = handingOut(500, t0);
    expect(shouldShed(limit, limit, rate, t0, t0 + SHED_STALL_MS)).toBe(true);
    expect(shouldShed(limit, limit, new AcquireRate(), t0, t0 + SHED_STALL_MS)).toBe(true);
  });

  it('serves a burst of 300 on a healthy pool, judged by its real pace', () => {
    // 2,000 hand-outs a second: more than the ring holds in a second
    const rate = handingOut(2_000, t0);
    expect(shouldShed(300, limit, rate, t0 - 5_000, t0 + 1)).toBe(false); // 0.15 s of queue
    expect(shouldShed(300, limit, handingOut(400, t0), t0 - 5_000, t0 + 1)).toBe(false); // 0.75 s
  });

  it('judges a queue by its pace only once it has been long for the pace window', () => {
    const slow = handingOut(5, t0);
    expect(shouldShed(limit, limit, slow, t0 - SHED_PACE_WINDOW_MS + 2, t0 + 1)).toBe(false);
    expect(shouldShed(limit, limit, slow, t0 - SHED_PACE_WINDOW_MS, t0 + 1)).toBe(true);
  });

  it('sheds when the queue would take longer than the budget at the pace seen since it grew (a held lock)', () => {
    const perSecond = 10;
    const rate = handingOut(perSecond, t0);
    const served = (perSecond * SHED_WAIT_BUDGET_MS) / 1_000;
    expect(shouldShed(Math.max(limit, served + 1), limit, rate, t0 - 5_000, t0 + 1)).toBe(true);
    expect(shouldShed(limit, limit, handingOut(40, t0), t0 - 5_000, t0 + 1)).toBe(false); // 0.5 s
  });

  it('stops shedding as soon as a thawed pool hands out at speed again', () => {
    // frozen for ten seconds, then 1,000 hand-outs a second for the last 200 ms
    const rate = new AcquireRate();
    for (let at = t0 - 200; at <= t0; at += 1) rate.record(at);
    expect(shouldShed(300, limit, rate, t0 - 10_000, t0 + 1)).toBe(false);
  });

  it('counts the hand-outs since a moment, newest first, and their pace', () => {
    const rate = handingOut(100, t0);
    expect(rate.countSince(t0 - 1_000)).toBe(100);
    expect(rate.countSince(t0 - 495)).toBe(50);
    expect(rate.last()).toBe(t0);
    expect(rate.perSecond(t0 - 1_000, t0)).toBeCloseTo(100, 0);
    expect(handingOut(5_000, t0).perSecond(t0 - 1_000, t0)).toBeGreaterThan(4_900);
  });
});

describe('load shedding while the event loop runs late (a burst being parsed)', () => {
  const limit = 20;
  const t0 = 1_000_000;

  it('counts no late time toward a stall: the process could not see hand-outs meanwhile', () => {
    const rate = new AcquireRate();
    rate.record(t0);
    const lag = { sinceHandoutMs: 400, recently: true };
    expect(shouldShed(300, limit, rate, t0, t0 + SHED_STALL_MS + 100, lag)).toBe(false);
    expect(shouldShed(300, limit, rate, t0, t0 + SHED_STALL_MS + 400, lag)).toBe(true);
  });

  it('reads no pace while the loop ran late lately', () => {
    const slow = new AcquireRate();
    for (let at = t0 - 400; at <= t0; at += 100) slow.record(at);
    expect(shouldShed(limit, limit, slow, t0 - 5_000, t0 + 1, { sinceHandoutMs: 0, recently: true })).toBe(
      false,
    );
    expect(shouldShed(limit, limit, slow, t0 - 5_000, t0 + 1)).toBe(true);
  });
});

describe('LoopClock: how late the process itself runs', () => {
  it('adds up the lateness of its ticks, the overdue one included, and never goes back', () => {
    const t0 = Date.now();
    const clock = new LoopClock(t0);
    clock.tick(t0 + LOOP_TICK_MS); // on time
    expect(clock.lateMs(t0 + LOOP_TICK_MS)).toBe(0);
    clock.tick(t0 + 2 * LOOP_TICK_MS + 300); // a burst kept the loop 300 ms behind
    expect(clock.lateMs(t0 + 2 * LOOP_TICK_MS + 300)).toBe(300);
    // the next tick is overdue by 100 ms: counted before it runs, and the same once it has
    const overdue = t0 + 3 * LOOP_TICK_MS + 400;
    expect(clock.lateMs(overdue)).toBe(400);
    clock.tick(overdue);
    expect(clock.lateMs(overdue)).toBe(400);
    expect(clock.lateMs(overdue + 10)).toBe(400);
  });

  it('says it ran late recently for a pace span after a tick late by more than the lag', () => {
    const t0 = Date.now();
    const clock = new LoopClock(t0);
    clock.tick(t0 + LOOP_TICK_MS + LOOP_LAG_MS + 1);
    const lateAt = t0 + LOOP_TICK_MS + LOOP_LAG_MS + 1;
    expect(clock.lateRecently(lateAt + 10)).toBe(true);
    let at = lateAt;
    while (at < lateAt + SHED_PACE_SPAN_MS) clock.tick((at += LOOP_TICK_MS)); // on time since
    expect(clock.lateRecently(lateAt + SHED_PACE_SPAN_MS + 1)).toBe(false);
  });
});
