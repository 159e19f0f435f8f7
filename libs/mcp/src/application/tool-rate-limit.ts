import { Injectable } from '@nestjs/common';
import { Clock, MINUTE } from '@app/platform';

/** 120 tool calls a minute per MCP key (INTERFACES.md "Webhooks and MCP"). */
export const MCP_TOOL_CALLS_PER_MINUTE = 120;

/**
 * Tool calls counted per key in fixed one-minute windows, in this process. Only `tools/call`
 * counts (`initialize` and `tools/list` are free). Over the limit a call is a tool error
 * RATE_LIMITED with `details.retryAfterSeconds`, inside the protocol, so the model sees it and waits.
 */
@Injectable()
export class ToolRateLimit {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly clock: Clock) {}

  /** Counts the call; null when it may go on, else the seconds until the window ends. */
  take(keyId: string): number | null {
    const now = this.clock.now().getTime();
    const start = Math.floor(now / MINUTE) * MINUTE;
    let window = this.windows.get(keyId);
    if (!window || window.start !== start) {
      if (this.windows.size > 10_000) this.sweep(start);
      window = { start, count: 0 };
      this.windows.set(keyId, window);
    }
    if (window.count >= MCP_TOOL_CALLS_PER_MINUTE)
      return Math.max(1, Math.ceil((start + MINUTE - now) / 1000));
    window.count += 1;
    return null;
  }

  private sweep(start: number): void {
    for (const [key, window] of this.windows) if (window.start !== start) this.windows.delete(key);
  }
}
