import { Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, type ThrottlerStorage } from '@nestjs/throttler';
import { ApiKeyPrincipal, DomainError, MINUTE, SHARED_LIMITS, type SharedLimitName } from '@app/platform';

/**
 * A route's `@SharedRateLimit` for the tool mirroring it (`search_crm`, `match_listing`: the
 * `search` limit): the very counters the route's throttler keeps in the platform's rate-limit store
 * (`shared:<name>:key:<keyId>` and `shared:<name>:org:<organizationId>`, one-minute windows), so an
 * MCP key counts as one more key of its agency and the agency's figure covers its API keys and MCP
 * keys together. Both windows are spent, as the route's are; past either, the tool error
 * RATE_LIMITED with `details.retryAfterSeconds`, like the per-key tool-call limit.
 */
@Injectable()
export class SharedToolLimit {
  constructor(@InjectThrottlerStorage() private readonly storage: ThrottlerStorage) {}

  async take(name: SharedLimitName, principal: ApiKeyPrincipal): Promise<void> {
    const limit =
      (name === 'search' ? principal.searchRatePerMinute : undefined) ?? SHARED_LIMITS[name].perMinute;
    const records = await Promise.all([
      this.storage.increment(`shared:${name}:key:${principal.keyId}`, MINUTE, limit, 0, `${name}-key`),
      this.storage.increment(
        `shared:${name}:org:${principal.organizationId}`,
        MINUTE,
        limit,
        0,
        `${name}-org`,
      ),
    ]);
    const refused = records.filter((record) => record.totalHits > limit);
    if (refused.length === 0) return;
    throw new DomainError('RATE_LIMITED', `Too many ${name} calls for this key or agency; wait and retry.`, {
      retryAfterSeconds: Math.max(1, ...refused.map((record) => record.timeToExpire)),
    });
  }
}
