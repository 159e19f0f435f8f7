import { DependencyUnavailableError } from '../errors/domain-error';

/** Connections of the pool an agency's writes never take: reads and other agencies always have them. */
export const READ_RESERVE = 2;

/**
 * How many writes of one organization this process runs at once: all the pool but `READ_RESERVE`.
 * Every write of an organization ends on its one event counter row (gap-free `sequence`), so a
 * herd of them can hold every connection waiting on that row; the reserve keeps reads and other
 * agencies served, while the writes keep nearly the pool's parallelism for the work before the
 * row (docs/reliability.md, "Writes per agency").
 */
export const orgWritePermits = (poolSize: number): number => Math.max(1, poolSize - READ_RESERVE);

interface Waiter {
  grant(release: () => void): void;
  timer: NodeJS.Timeout;
}

/** A wait is never stretched past this many times the deadline, however late the loop runs. */
const MAX_STRETCH = 4;

interface OrgLane {
  active: number;
  waiting: Waiter[];
}

/**
 * Spec of the rule: at most `permits` writes per organization in flight; the next ones wait in
 * arrival order, in memory (not on a pooled connection), for at most `waitMs`, the pool's own
 * deadline; one that would wait longer is refused as the pool would refuse it (503, `Retry-After`).
 * Time the process's own loop ran late (`lateMs`: a just-started process meeting a crowd) does not
 * count toward the deadline, up to `MAX_STRETCH` times it, as for shedding.
 */
export class OrgWriteGate {
  private readonly lanes = new Map<string, OrgLane>();

  constructor(
    private readonly permits: number,
    private readonly waitMs: number,
    private readonly lateMs: (now: number) => number = () => 0,
  ) {}

  /** A release function once the write may run; it must be called once the write is over. */
  acquire(organizationId: string): Promise<() => void> {
    let lane = this.lanes.get(organizationId);
    if (!lane) this.lanes.set(organizationId, (lane = { active: 0, waiting: [] }));
    if (lane.active < this.permits) {
      lane.active++;
      return Promise.resolve(this.releaseOf(organizationId, lane));
    }
    const waiting = lane.waiting;
    return new Promise((resolve, reject) => {
      const since = Date.now();
      const lateAtStart = this.lateMs(since);
      const waiter: Waiter = { grant: resolve, timer: undefined as unknown as NodeJS.Timeout };
      const expire = () => {
        const now = Date.now();
        const onTime = now - since - (this.lateMs(now) - lateAtStart);
        if (onTime < this.waitMs && now - since < this.waitMs * MAX_STRETCH) {
          const left = Math.min(this.waitMs - onTime, this.waitMs * MAX_STRETCH - (now - since));
          waiter.timer = setTimeout(expire, Math.max(1, left));
          return;
        }
        waiting.splice(waiting.indexOf(waiter), 1);
        reject(new DependencyUnavailableError("the agency's writes are queued too long; request shed"));
      };
      waiter.timer = setTimeout(expire, this.waitMs);
      waiting.push(waiter);
    });
  }

  /** Writes in flight and waiting for an organization (metrics, tests). */
  load(organizationId: string): { active: number; waiting: number } {
    const lane = this.lanes.get(organizationId);
    return { active: lane?.active ?? 0, waiting: lane?.waiting.length ?? 0 };
  }

  private releaseOf(organizationId: string, lane: OrgLane): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = lane.waiting.shift();
      if (next) {
        clearTimeout(next.timer);
        next.grant(this.releaseOf(organizationId, lane));
        return;
      }
      lane.active--;
      if (lane.active === 0) this.lanes.delete(organizationId);
    };
  }
}
