import { Injectable } from '@nestjs/common';
import { OutboundError, OutboundHttp } from '@app/platform';
import type { FeedParser, FeedParseResult } from '../domain/feeds';

/** The download could not be done or was refused: the import fails with this message. */
export class FeedDownloadError extends Error {}

/** Limits of one download (docs/security/outbound-requests.md: 30 s, 50 MB, http and https only, 3 redirects). */
export const FEED_DOWNLOAD = {
  timeoutMs: 30_000,
  maxBytes: 50 * 1024 * 1024,
  maxLabel: '50 MB',
  maxRedirects: 3,
  /** A URL given to connect or change a feed is checked within this (resolving its host). */
  checkMs: 5_000,
} as const;

/**
 * Downloads a feed through the platform's outbound guard (docs/security/outbound-requests.md) and
 * streams it into its parser as it arrives (UTF-8), so a large document is never held whole. Up to
 * 3 redirects, each checked as the first URL was. The whole exchange, body included, must end
 * within 30 s and stay within 50 MB. A failure's message never repeats what the far side sent.
 */
@Injectable()
export class FeedFetcher {
  constructor(private readonly outbound: OutboundHttp) {}

  /**
   * Why a feed may not be connected to `url` (the guard's refusal: an internal address, say), or
   * null. A host that does not resolve now is let through: each import checks it again.
   */
  async refusal(url: string): Promise<string | null> {
    try {
      await this.outbound.check(url, FEED_DOWNLOAD.checkMs);
      return null;
    } catch (err) {
      if (err instanceof OutboundError) return err.refused ? err.message : null;
      throw err;
    }
  }

  async fetchInto(url: string, parser: FeedParser): Promise<FeedParseResult> {
    try {
      const answer = await this.outbound.request(url, {
        method: 'GET',
        headers: {
          accept: 'application/xml, text/xml, application/x-ndjson, application/jsonl, */*',
          'user-agent': 'estate-agency-feeds/1',
        },
        timeoutMs: FEED_DOWNLOAD.timeoutMs,
        maxBytes: FEED_DOWNLOAD.maxBytes,
        maxRedirects: FEED_DOWNLOAD.maxRedirects,
      });
      if (answer.status < 200 || answer.status > 299) {
        answer.discard();
        throw new FeedDownloadError(`The feed URL answered HTTP ${answer.status}.`);
      }
      const decoder = new TextDecoder('utf-8');
      for await (const chunk of answer.body()) parser.write(decoder.decode(chunk, { stream: true }));
      parser.write(decoder.decode());
      return parser.end();
    } catch (err) {
      throw err instanceof OutboundError ? new FeedDownloadError(downloadMessage(err)) : err;
    }
  }
}

/** The guard's refusal as it is ("address not allowed"); a failure in the feed's words. */
function downloadMessage(err: OutboundError): string {
  if (err.refused) return err.message;
  if (err.reason === 'too large') return `The feed is larger than ${FEED_DOWNLOAD.maxLabel}.`;
  if (err.reason === 'timed out') return 'The feed URL did not answer within 30 s.';
  return `The feed URL could not be read (${err.reason}).`;
}
