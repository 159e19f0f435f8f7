import { Injectable } from '@nestjs/common';
import { BufferedWrites, WriteBuffer } from '@app/platform';
import { ApiKeyRepository } from '../domain/api-key.repository';
import { IntegrationKeyRepository } from '../domain/integration-key.repository';

interface Usage {
  count: number;
  at: Date;
  ip: string | null;
  userAgent: string | null;
}

const FLUSH_EVERY_MS = 10_000; // spec: usage fields may lag about 30 seconds

/**
 * Usage fields are gathered in memory and written in one statement every few seconds per kind of
 * key (docs/reliability.md, "Counters without a hot row"): never a write per request.
 */
@Injectable()
export class KeyUsageRecorder {
  private readonly usage: WriteBuffer<string, Usage>;
  /** Integration keys keep only `lastUsedAt`. */
  private readonly integrationUse: WriteBuffer<string, Date>;

  constructor(keys: ApiKeyRepository, integrationKeys: IntegrationKeyRepository, buffers: BufferedWrites) {
    this.usage = buffers.register({
      name: 'api key usage',
      everyMs: FLUSH_EVERY_MS,
      merge: (older, newer) => ({
        count: older.count + newer.count,
        at: newer.at,
        ip: newer.ip ?? older.ip,
        userAgent: newer.userAgent ?? older.userAgent,
      }),
      write: (batch) =>
        keys.addUsage(
          [...batch].map(([id, u]) => ({
            id,
            count: u.count,
            at: u.at.toISOString(),
            ip: u.ip,
            agent: u.userAgent,
          })),
        ),
    });
    this.integrationUse = buffers.register({
      name: 'integration key use',
      everyMs: FLUSH_EVERY_MS,
      merge: (older, newer) => (newer > older ? newer : older),
      write: (batch) =>
        integrationKeys.recordLastUse([...batch].map(([id, at]) => ({ id, at: at.toISOString() }))),
    });
  }

  record(keyId: string, at: Date, ip: string | undefined, userAgent: string | undefined): void {
    this.usage.add(keyId, { count: 1, at, ip: ip ?? null, userAgent: userAgent?.slice(0, 512) ?? null });
  }

  recordIntegration(keyId: string, at: Date): void {
    this.integrationUse.add(keyId, at);
  }

  /** Writes everything gathered so far; how many keys it wrote. */
  async flush(): Promise<number> {
    const [integration, keys] = await Promise.all([this.integrationUse.flush(), this.usage.flush()]);
    return integration + keys;
  }
}
