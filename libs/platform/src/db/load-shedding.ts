import type { MikroORM } from '@mikro-orm/core';
import type { NextFunction, Request, Response } from 'express';
import { DependencyUnavailableError } from '../errors/domain-error';

/** Calls queued for a pooled connection, per connection, below which nothing is ever shed. */
export const SHED_QUEUE_PER_CONNECTION = 2;

/**
 * A newcomer who would wait longer than this for a connection is shed: half the pool's 1.5 s
 * deadline (`REQUEST_WAITS.acquireMs`), since one request may queue for several statements.
 */
export const SHED_WAIT_BUDGET_MS = 750;

/** No connection handed out for this long while calls queue: the pool is stalled (a frozen server). */
export const SHED_STALL_MS = 500;

/** A queue is judged by its pace only once it has been long for this long (a burst is given time). */
export const SHED_PACE_WINDOW_MS = 250;

/**
 * The pace is the pool's over at most this recent span: right after a fault ends it shows the
 * thawed pool's speed, not the stalled seconds before it.
 */
export const SHED_PACE_SPAN_MS = 500;

/**
 * The process's own clock: a tick this often. A tick late by more than `LOOP_LAG_MS` means the
 * event loop itself was busy (a burst being parsed): hand-outs could not be seen meanwhile, so
 * that time is no sign of the database (docs/reliability.md, "Load shedding").
 */
export const LOOP_TICK_MS = 50;
export const LOOP_LAG_MS = 50;

/** What the event loop did lately, as the shedding rule reads it. */
export interface LoopLag {
  /** How much of the time since the last hand-out the loop spent late (ms). */
  sinceHandoutMs: number;
  /** Whether the loop ran late within the last `SHED_PACE_SPAN_MS`. */
  recently: boolean;
}

const NO_LAG: LoopLag = { sinceHandoutMs: 0, recently: false };

/**
 * The process's own clock: how late its event loop ran since it started, from a tick every
 * `LOOP_TICK_MS`. One per process, for every rule that must not read the process's own lateness
 * as a sign of the database (shedding, the write gate).
 */
export class LoopClock {
  private lateTotalMs = 0;
  private laggedAt = -Infinity;

  constructor(private tickAt = Date.now()) {
    setInterval(() => this.tick(Date.now()), LOOP_TICK_MS).unref();
  }

  tick(now: number): void {
    const late = now - this.tickAt - LOOP_TICK_MS;
    this.tickAt = now;
    if (late > 0) this.lateTotalMs += late;
    if (late > LOOP_LAG_MS) this.laggedAt = now;
  }

  /** Milliseconds the loop ran late so far, a tick still overdue included (never decreases). */
  lateMs(now: number): number {
    return this.lateTotalMs + Math.max(0, now - this.tickAt - LOOP_TICK_MS);
  }

  /** Whether the loop is late by more than `LOOP_LAG_MS` now or was within `SHED_PACE_SPAN_MS`. */
  lateRecently(now: number): boolean {
    return now - this.tickAt - LOOP_TICK_MS > LOOP_LAG_MS || now - this.laggedAt < SHED_PACE_SPAN_MS;
  }
}

let processClock: LoopClock | undefined;
/** This process's loop clock, started on first use. */
export const loopClock = (): LoopClock => (processClock ??= new LoopClock());

/** Routes that must answer whatever the pool does. */
const NEVER_SHED = new Set(['/health/live', '/metrics']);

interface TarnPool {
  numPendingAcquires(): number;
  on(event: 'acquireRequest' | 'acquireSuccess', listener: () => void): void;
}

/**
 * How fast the pool hands out connections: the times of its last hand-outs, in a ring. A
 * saturated but healthy pool (a burst of 300 reads, a connector writing on 32 connections) serves
 * its queue in milliseconds; a faulted one (a frozen server, a held lock) hands out a few a second
 * or none.
 */
export class AcquireRate {
  private readonly times: number[];
  private next = 0;
  private count = 0;

  constructor(private readonly capacity = 1_024) {
    this.times = new Array<number>(capacity).fill(0);
  }

  record(at: number): void {
    this.times[this.next] = at;
    this.next = (this.next + 1) % this.capacity;
    this.count = Math.min(this.count + 1, this.capacity);
  }

  /** When the last connection was handed out, or null if none was yet. */
  last(): number | null {
    return this.count === 0 ? null : this.times[(this.next - 1 + this.capacity) % this.capacity];
  }

  /** How many hand-outs happened at or after `since` (at most the ring's capacity). */
  countSince(since: number): number {
    let recent = 0;
    for (let i = 1; i <= this.count; i += 1) {
      if (this.times[(this.next - i + this.capacity) % this.capacity] < since) break;
      recent += 1;
    }
    return recent;
  }

  /**
   * Hand-outs per second from `since` to `now`. When the ring holds fewer than that span, over the
   * span it holds: a fast pool is never judged slower than it is.
   */
  perSecond(since: number, now: number): number {
    const recent = this.countSince(since);
    const oldest = this.times[(this.next - recent + this.capacity) % this.capacity];
    const from = recent === this.capacity ? oldest : since;
    return now > from ? (recent * 1_000) / (now - from) : 0;
  }
}

/**
 * Spec of the rule (docs/reliability.md, "Load shedding"): once at least
 * `poolSize × SHED_QUEUE_PER_CONNECTION` calls are queued (since `saturatedSince`), a newcomer is
 * shed when the pool handed out nothing for `SHED_STALL_MS` (a frozen server), or, once the queue
 * has been long for `SHED_PACE_WINDOW_MS`, when it would take longer than `SHED_WAIT_BUDGET_MS`
 * to serve at the pace seen since it grew long, over at most the last `SHED_PACE_SPAN_MS` (a
 * held lock). Time the event loop spent late (`lag`) counts for neither: it is the process's own. A
 * long queue that moves (a burst of reads, a connector writing on 32 connections) is served.
 */
export function shouldShed(
  pending: number,
  limit: number,
  rate: AcquireRate,
  saturatedSince: number,
  now: number,
  lag: LoopLag = NO_LAG,
): boolean {
  if (pending < limit) return false;
  const last = rate.last();
  const quiet = now - Math.max(last ?? saturatedSince, saturatedSince) - lag.sinceHandoutMs;
  if (quiet >= SHED_STALL_MS) return true;
  // a pace read while the loop ran late counts hand-outs the process had no time to see
  if (lag.recently || now - saturatedSince < SHED_PACE_WINDOW_MS) return false;
  const perSecond = rate.perSecond(Math.max(saturatedSince, now - SHED_PACE_SPAN_MS), now);
  // nothing handed out since the queue grew long is the stall rule's to judge
  return perSecond > 0 && (pending * 1_000) / perSecond > SHED_WAIT_BUDGET_MS;
}

/**
 * Sheds load while the database pool cannot serve its queue in time: a new request answers 503
 * with `Retry-After` at once instead of joining the queue (`shouldShed`). A fault (a frozen
 * server, a held lock) then leaves no backlog of stale requests behind it, so full service returns
 * as soon as the database does; a busy, healthy pool keeps queueing.
 */
export function shedWhenPoolSaturated(orm: MikroORM, poolSize: number) {
  const limit = poolSize * SHED_QUEUE_PER_CONNECTION;
  const rate = new AcquireRate();
  let saturatedSince: number | null = null; // since when at least `limit` calls have been queued
  const observe = (pending: number, now: number) => {
    if (pending < limit) saturatedSince = null;
    else saturatedSince ??= now;
  };
  const clock = loopClock();
  let lateAtHandout = clock.lateMs(Date.now());
  const lagNow = (now: number): LoopLag => ({
    sinceHandoutMs: clock.lateMs(now) - lateAtHandout,
    recently: clock.lateRecently(now),
  });
  const watched = new WeakSet<TarnPool>();
  const pool = (): TarnPool | undefined => {
    const current = (
      orm.em.getConnection() as unknown as { getKnex(): { client?: { pool?: TarnPool } } }
    ).getKnex().client?.pool;
    if (current && !watched.has(current)) {
      watched.add(current);
      // tarn announces a request before queueing it, and a hand-out after taking it off the queue
      current.on('acquireRequest', () => observe(current.numPendingAcquires() + 1, Date.now()));
      current.on('acquireSuccess', () => {
        const now = Date.now();
        rate.record(now);
        lateAtHandout = clock.lateMs(now);
        observe(current.numPendingAcquires(), now);
      });
    }
    return current;
  };
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (NEVER_SHED.has(req.path)) return next();
    const pending = pool()?.numPendingAcquires() ?? 0;
    const now = Date.now();
    observe(pending, now);
    if (saturatedSince !== null && shouldShed(pending, limit, rate, saturatedSince, now, lagNow(now))) {
      next(new DependencyUnavailableError('database pool saturated; request shed'));
      return;
    }
    next();
  };
}
