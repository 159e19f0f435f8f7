import { Injectable } from '@nestjs/common';
import { Clock } from '@app/platform';
import type { McpKeyFacts } from '../domain/mcp-key.repository';

/**
 * Door facts kept for seconds: the owner's role is read again at least every `MCP_KEY_CACHE_TTL_MS`
 * (spec: an owner gone is refused within 5 minutes). A revoke forgets the key at once in this
 * process; another API process holds it at most the TTL.
 */
export const MCP_KEY_CACHE_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

@Injectable()
export class McpKeyCache {
  private readonly entries = new Map<string, { facts: McpKeyFacts; at: number }>();

  constructor(private readonly clock: Clock) {}

  get(secretHash: string): McpKeyFacts | undefined {
    const entry = this.entries.get(secretHash);
    if (!entry) return undefined;
    if (this.clock.now().getTime() - entry.at > MCP_KEY_CACHE_TTL_MS) {
      this.entries.delete(secretHash);
      return undefined;
    }
    return entry.facts;
  }

  set(secretHash: string, facts: McpKeyFacts): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(secretHash, { facts, at: this.clock.now().getTime() });
  }

  forgetKey(keyId: string): void {
    for (const [hash, { facts }] of this.entries) if (facts.id === keyId) this.entries.delete(hash);
  }
}
