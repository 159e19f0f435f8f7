import { Injectable, Logger, OnApplicationShutdown, OnModuleInit, Optional } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig, Metrics, REDIS_COMMAND_TIMEOUT_MS } from '@app/platform';
import type { KeyFacts } from '../domain/api-key.repository';
import type { IntegrationKeyFacts } from '../domain/integration-key.repository';

/** API keys and integration keys share the cache: their secrets (hence hashes) never collide. */
type CachedFacts = KeyFacts | IntegrationKeyFacts;
const isIntegration = (facts: CachedFacts): facts is IntegrationKeyFacts => 'connector' in facts;

const TTL_MS = 5_000; // far inside the spec's 5-minute rule for owners who leave
const MAX_ENTRIES = 10_000;
const CHANNEL = 'api-key-cache:invalidate';

type Invalidation = { kind: 'key' | 'owner' | 'organization'; id: string };

/**
 * A small in-process cache in front of the key lookups (API keys and integration keys). A revoke, a narrow, a role change or a
 * plan switch invalidates it at once here and, with REDIS_URL, in every other API process.
 */
@Injectable()
export class ApiKeyCache implements OnModuleInit, OnApplicationShutdown {
  private readonly log = new Logger('ApiKeyCache');
  private readonly entries = new Map<string, { facts: CachedFacts; at: number }>();
  private publisher?: Redis;
  private subscriber?: Redis;

  constructor(
    private readonly config: AppConfig,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  /**
   * Subscribes without waiting: a Redis that does not answer must not hold up the start (ioredis
   * connects and subscribes again by itself once it answers). Until then this process hears of no
   * other process's revokes, and a cached key lives out its 5 seconds.
   */
  onModuleInit(): void {
    if (!this.config.redisUrl) return;
    this.publisher = new Redis(this.config.redisUrl, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      connectTimeout: 1_000,
    });
    this.subscriber = new Redis(this.config.redisUrl, { connectTimeout: 1_000 });
    for (const client of [this.publisher, this.subscriber]) client.on('error', () => undefined);
    this.subscriber.on('message', (_channel, message: string) =>
      this.apply(JSON.parse(message) as Invalidation),
    );
    this.subscriber
      .subscribe(CHANNEL)
      .catch((err) => this.log.warn({ err: String(err) }, 'key cache not subscribed yet'));
  }

  onApplicationShutdown(): void {
    this.publisher?.disconnect();
    this.subscriber?.disconnect();
  }

  get(secretHash: string, nowMs: number = Date.now()): KeyFacts | undefined {
    const facts = this.fresh(secretHash, nowMs);
    this.metrics?.keyCacheLookups.inc({ result: facts ? 'hit' : 'miss' });
    return facts && !isIntegration(facts) ? facts : undefined;
  }

  getIntegration(keyHash: string, nowMs: number = Date.now()): IntegrationKeyFacts | undefined {
    const facts = this.fresh(keyHash, nowMs);
    this.metrics?.keyCacheLookups.inc({ result: facts ? 'hit' : 'miss' });
    return facts && isIntegration(facts) ? facts : undefined;
  }

  private fresh(secretHash: string, nowMs: number): CachedFacts | undefined {
    const entry = this.entries.get(secretHash);
    if (!entry) return undefined;
    if (nowMs - entry.at > TTL_MS) {
      this.entries.delete(secretHash);
      return undefined;
    }
    return entry.facts;
  }

  set(secretHash: string, facts: CachedFacts, nowMs: number = Date.now()): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(secretHash, { facts, at: nowMs });
  }

  invalidateKey(keyId: string): void {
    this.broadcast({ kind: 'key', id: keyId });
  }

  invalidateOwner(userId: string): void {
    this.broadcast({ kind: 'owner', id: userId });
  }

  invalidateOrganization(organizationId: string): void {
    this.broadcast({ kind: 'organization', id: organizationId });
  }

  private broadcast(invalidation: Invalidation): void {
    this.apply(invalidation);
    this.publisher?.publish(CHANNEL, JSON.stringify(invalidation)).catch((err) => this.log.warn(String(err)));
  }

  private apply({ kind, id }: Invalidation): void {
    for (const [hash, { facts }] of this.entries) {
      const hit =
        kind === 'key'
          ? facts.id === id
          : kind === 'owner'
            ? !isIntegration(facts) && facts.ownerId === id
            : facts.organizationId === id;
      if (hit) this.entries.delete(hash);
    }
  }
}
