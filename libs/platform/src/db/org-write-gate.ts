import { DependencyUnavailableError } from '../errors/domain-error';

/**
 * How many writes of one organization this process runs at once: half the pool. Every write of an
 * organization ends on its one event counter row (gap-free `sequence`), so more at once only wait
 * on that row holding connections; the other half of the pool stays free for reads and for other
 * agencies (docs/reliability.md, "Writes per agency").
 */
export const orgWritePermits = (poolSize: number): number => Math.max(1, Math.floor(poolSize / 2));

interface Waiter {
  grant(release: () => void): void;
  timer: NodeJS.Timeout;
}

interface OrgLane {
  active: number;
  waiting: Waiter[];
}

/**
 * Spec of the rule: at most `permits` writes per organization in flight; the next ones wait in
 * arrival order, in memory (not on a pooled connection), for at most `waitMs`, the pool's own
 * deadline; one that would wait longer is refused as the pool would refuse it (503, `Retry-After`).
 */
export class OrgWriteGate {
  private readonly lanes = new Map<string, OrgLane>();

  constructor(
    private readonly permits: number,
    private readonly waitMs: number,
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
      const waiter: Waiter = {
        grant: resolve,
        timer: setTimeout(() => {
          waiting.splice(waiting.indexOf(waiter), 1);
          reject(new DependencyUnavailableError("the agency's writes are queued too long; request shed"));
        }, this.waitMs),
      };
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
