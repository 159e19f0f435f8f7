/** The one source of "now", so expiry, grace periods and windows are testable. */
export abstract class Clock {
  abstract now(): Date;
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}

/** A clock tests move by hand. */
export class ManualClock extends Clock {
  private current: Date;
  constructor(start: Date = new Date()) {
    super();
    this.current = new Date(start);
  }
  now(): Date {
    return new Date(this.current);
  }
  set(at: Date): void {
    this.current = new Date(at);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
  reset(): void {
    this.current = new Date();
  }
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
