import { Injectable } from '@nestjs/common';
import { OutboundError, OutboundHttp } from '@app/platform';
import { DELIVERY_TIMEOUT_MS } from '../domain/webhook-rules';

/** Each attempt's HTTP result; `status` null when no answer came. */
export interface SendResult {
  status: number | null;
  retryAfter: string | undefined;
  durationMs: number;
  error: string | null;
}

/** A receiver's answer body is never read; this bounds what a Content-Length could claim. */
const ANSWER_MAX_BYTES = 1024 * 1024;

/**
 * The HTTP side of a delivery, through the platform's outbound guard (its address rules at every
 * attempt, the connection to the checked address): one POST, 10 s in all, redirects not followed
 * (a 3xx is a failure), the answer's body dropped unread. `error` is the guard's reason or the
 * status alone, never what the receiver said.
 */
@Injectable()
export class WebhookTransport {
  constructor(private readonly outbound: OutboundHttp) {}

  /** The guard's checks for a new `url`, without sending (OutboundError naming the refusal). */
  check(url: string, timeoutMs: number): Promise<void> {
    return this.outbound.check(url, timeoutMs);
  }

  async post(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const started = Date.now();
    try {
      const answer = await this.outbound.request(url, {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'user-agent': 'estate-agency-webhooks/1',
        },
        body,
        timeoutMs: DELIVERY_TIMEOUT_MS,
        maxBytes: ANSWER_MAX_BYTES,
        maxRedirects: 0,
      });
      answer.discard();
      const ok = answer.status >= 200 && answer.status < 300;
      const retryAfter = answer.headers['retry-after'];
      return {
        status: answer.status,
        retryAfter,
        durationMs: Date.now() - started,
        error: ok ? null : `the receiver answered ${answer.status}`,
      };
    } catch (err) {
      if (!(err instanceof OutboundError)) throw err;
      return { status: null, retryAfter: undefined, durationMs: Date.now() - started, error: err.message };
    }
  }
}
