import { BeforeApplicationShutdown, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ApiKeyRepository, KeyUsage } from '../domain/api-key.repository';
import { IntegrationKeyRepository } from '../domain/integration-key.repository';

interface Usage {
  count: number;
  at: Date;
  ip: string | null;
  userAgent: string | null;
}

const FLUSH_EVERY_MS = 10_000; // spec: usage fields may lag about 30 seconds

/**
 * Usage fields are gathered in memory and written in one statement every few seconds: never a
 * write per request on the hot path.
 */
@Injectable()
export class KeyUsageRecorder implements OnModuleInit, BeforeApplicationShutdown {
  private readonly log = new Logger('KeyUsage');
  private pending = new Map<string, Usage>();
  /** Integration keys keep only `lastUsedAt`. */
  private pendingIntegration = new Map<string, Date>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly integrationKeys: IntegrationKeyRepository,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(
      () => void this.flush().catch((err) => this.log.warn(String(err))),
      FLUSH_EVERY_MS,
    );
    this.timer.unref();
  }

  // before the ORM closes its pool, so the last few seconds of usage are written
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush().catch((err) => this.log.warn(String(err)));
  }

  record(keyId: string, at: Date, ip: string | undefined, userAgent: string | undefined): void {
    const usage = this.pending.get(keyId);
    if (usage) {
      usage.count += 1;
      usage.at = at;
      usage.ip = ip ?? usage.ip;
      usage.userAgent = userAgent ?? usage.userAgent;
    } else {
      this.pending.set(keyId, { count: 1, at, ip: ip ?? null, userAgent: userAgent?.slice(0, 512) ?? null });
    }
  }

  recordIntegration(keyId: string, at: Date): void {
    this.pendingIntegration.set(keyId, at);
  }

  /** Writes everything gathered so far: one UPDATE per kind of key. */
  async flush(): Promise<number> {
    const integration = this.pendingIntegration;
    this.pendingIntegration = new Map();
    if (integration.size > 0) {
      await this.integrationKeys.recordLastUse(
        [...integration].map(([id, at]) => ({ id, at: at.toISOString() })),
      );
    }
    if (this.pending.size === 0) return integration.size;
    const batch = this.pending;
    this.pending = new Map();
    const rows: KeyUsage[] = [...batch].map(([id, u]) => ({
      id,
      count: u.count,
      at: u.at.toISOString(),
      ip: u.ip,
      agent: u.userAgent,
    }));
    await this.keys.addUsage(rows);
    return batch.size + integration.size;
  }
}
