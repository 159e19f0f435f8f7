import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { loggableError } from '../errors/loggable-error';

export interface WriteBufferOptions<K, V> {
  /** For the log: what is buffered ("brochure views"). */
  name: string;
  /** How often what was gathered is written. */
  everyMs: number;
  /** One key's gathered value and a newer one, as one value. */
  merge(older: V, newer: V): V;
  /** Writes a batch in one statement (or one transaction); throws to keep it for the next time. */
  write(batch: ReadonlyMap<K, V>): Promise<void>;
}

/**
 * Values gathered in memory per key and written together (docs/reliability.md, "Counters without
 * a hot row"): a counter bumped per request costs a map update, not a row lock. A failed write
 * keeps its batch for the next one, merged with what came since; flushes run one at a time.
 */
export class WriteBuffer<K, V> {
  private pending = new Map<K, V>();
  private running: Promise<unknown> = Promise.resolve();

  constructor(readonly options: WriteBufferOptions<K, V>) {}

  add(key: K, value: V): void {
    const older = this.pending.get(key);
    this.pending.set(key, older === undefined ? value : this.options.merge(older, value));
  }

  /** Keys gathered and not written yet. */
  get size(): number {
    return this.pending.size;
  }

  /** Writes what was gathered up to now (after a flush already running); how many keys it wrote. */
  flush(): Promise<number> {
    const next = this.running.catch(() => undefined).then(() => this.writePending());
    this.running = next;
    return next;
  }

  private async writePending(): Promise<number> {
    if (this.pending.size === 0) return 0;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await this.options.write(batch);
      return batch.size;
    } catch (err) {
      for (const [key, older] of batch) {
        const newer = this.pending.get(key);
        this.pending.set(key, newer === undefined ? older : this.options.merge(older, newer));
      }
      throw err;
    }
  }
}

/**
 * Every write buffer of the process: each flushed on its own timer, and all of them once more
 * before the application closes its database pool (after the HTTP drain), so a graceful stop
 * loses nothing gathered.
 */
@Injectable()
export class BufferedWrites implements BeforeApplicationShutdown {
  private readonly log = new Logger('BufferedWrites');
  private readonly buffers: WriteBuffer<unknown, unknown>[] = [];
  private readonly timers: NodeJS.Timeout[] = [];

  register<K, V>(options: WriteBufferOptions<K, V>): WriteBuffer<K, V> {
    const buffer = new WriteBuffer(options);
    this.buffers.push(buffer as WriteBuffer<unknown, unknown>);
    const timer = setInterval(() => void this.flushOne(buffer), options.everyMs);
    timer.unref();
    this.timers.push(timer);
    return buffer;
  }

  /** Writes every buffer now (tests read what was counted; the stop calls it last). */
  async flushAll(): Promise<void> {
    await Promise.all(this.buffers.map((buffer) => this.flushOne(buffer)));
  }

  async beforeApplicationShutdown(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    await this.flushAll();
  }

  private async flushOne(buffer: WriteBuffer<unknown, unknown>): Promise<void> {
    const waiting = buffer.size;
    try {
      await buffer.flush();
    } catch (err) {
      this.log.warn(
        { buffer: buffer.options.name, waiting, err: loggableError(err) },
        'buffered writes not written; kept for the next flush',
      );
    }
  }
}
