import { once } from 'node:events';
import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig, REDIS_COMMAND_TIMEOUT_MS } from '@app/platform';
import type { KeyChange } from './key-door-cache';

/** The channel every API process listened on before the door was one: old and new processes still hear each other. */
const CHANNEL = 'api-key-cache:invalidate';
const KINDS: readonly string[] = ['key', 'owner', 'organization'];
const FIRST_CONNECT_WAIT_MS = 1_000;

export interface KeyChangeListener {
  change(change: KeyChange): void;
  /** Changes may have been missed (subscribed again after a break, or a message not understood). */
  reset(): void;
}

const parsed = (message: string): KeyChange | null => {
  try {
    const value = JSON.parse(message) as Partial<KeyChange> | null;
    return value &&
      typeof value.kind === 'string' &&
      KINDS.includes(value.kind) &&
      typeof value.id === 'string'
      ? { kind: value.kind, id: value.id }
      : null;
  } catch {
    return null;
  }
};

/**
 * How a key change reaches every API process: with REDIS_URL, Redis pub/sub. While this process
 * is not subscribed (Redis down, or not yet up) it may miss changes, so `listening` is false and
 * the door reads every key from the database; once subscribed again it forgets what it cached.
 */
@Injectable()
export class KeyChangeChannel implements OnModuleInit, OnApplicationShutdown {
  private readonly log = new Logger('KeyChangeChannel');
  private publisher?: Redis;
  private subscriber?: Redis;
  private subscribed = false;
  private publisherWasReady = false;
  private listener?: KeyChangeListener;

  constructor(private readonly config: AppConfig) {}

  /** True while this process hears every other process's changes (always, without REDIS_URL). */
  get listening(): boolean {
    return !this.config.redisUrl || this.subscribed;
  }

  listen(listener: KeyChangeListener): void {
    this.listener = listener;
  }

  /** Connects without waiting: a Redis that does not answer must not hold up the start. */
  onModuleInit(): void {
    if (!this.config.redisUrl) return;
    this.publisher = new Redis(this.config.redisUrl, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      connectTimeout: 1_000,
    });
    this.publisher.on('ready', () => (this.publisherWasReady = true));
    // subscribed again by hand at each connection, so the moment it holds is known
    this.subscriber = new Redis(this.config.redisUrl, { connectTimeout: 1_000, autoResubscribe: false });
    for (const client of [this.publisher, this.subscriber]) client.on('error', () => undefined);
    this.subscriber.on('ready', () => this.subscribe());
    this.subscriber.on('close', () => (this.subscribed = false));
    this.subscriber.on('message', (_channel, message: string) => {
      const change = parsed(message);
      if (change) this.listener?.change(change);
      else this.listener?.reset();
    });
  }

  onApplicationShutdown(): void {
    this.subscribed = false;
    this.publisher?.disconnect();
    this.subscriber?.disconnect();
  }

  /**
   * Tells every other process; the caller's answer waits for it (at most about a second), so the
   * next request anywhere sees the change. A Redis that does not answer is logged, not thrown:
   * the change is committed, and the other processes' entries live out the cache's lifetime.
   */
  async publish(change: KeyChange): Promise<void> {
    const publisher = this.publisher;
    if (!publisher) return;
    try {
      // a process just started (the operator's command line) waits for its first connection
      if (publisher.status !== 'ready' && !this.publisherWasReady) {
        await once(publisher, 'ready', { signal: AbortSignal.timeout(FIRST_CONNECT_WAIT_MS) });
      }
      await publisher.publish(CHANNEL, JSON.stringify(change));
    } catch (err) {
      this.log.warn(
        { err: String(err), change },
        'key change not published; other processes hold it until their cache entry ends',
      );
    }
  }

  private subscribe(): void {
    this.subscriber?.subscribe(CHANNEL).then(
      () => {
        this.listener?.reset();
        this.subscribed = true;
      },
      (err) => this.log.warn({ err: String(err) }, 'key changes not subscribed yet'),
    );
  }
}
