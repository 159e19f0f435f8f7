import { Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, type ThrottlerStorage } from '@nestjs/throttler';
import { MINUTE } from '@app/platform';

/** 120 tool calls a minute per MCP key (INTERFACES.md "Webhooks and MCP"). */
export const MCP_TOOL_CALLS_PER_MINUTE = 120;

/**
 * Tool calls counted per key in fixed one-minute windows, in the platform's rate-limit store (Redis
 * with REDIS_URL, so every API process shares the count; memory otherwise). Only `tools/call`
 * counts (`initialize` and `tools/list` are free), and a call refused for its grants spends
 * nothing. Over the limit a call is the tool error RATE_LIMITED with `details.retryAfterSeconds`,
 * inside the protocol, so the model sees it and waits.
 */
@Injectable()
export class ToolRateLimit {
  constructor(@InjectThrottlerStorage() private readonly storage: ThrottlerStorage) {}

  /** Counts the call; null when it may go on, else the seconds until the window ends. */
  async take(keyId: string): Promise<number | null> {
    const record = await this.storage.increment(
      `mcp-tools:${keyId}`,
      MINUTE,
      MCP_TOOL_CALLS_PER_MINUTE,
      0,
      'mcp-tools',
    );
    return record.totalHits > MCP_TOOL_CALLS_PER_MINUTE ? Math.max(1, record.timeToExpire) : null;
  }
}
