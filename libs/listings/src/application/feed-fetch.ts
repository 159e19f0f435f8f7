import { Injectable } from '@nestjs/common';
import { MalformedFeedError, type FeedParser, type FeedParseResult } from '../domain/feeds';

/** The download could not be done or was refused: the import fails with this message. */
export class FeedDownloadError extends Error {}

/** Limits of one download (INTERFACES.md "Listings": 30 s, 50 MB, http and https only). */
export const FEED_DOWNLOAD = { timeoutMs: 30_000, maxBytes: 50 * 1024 * 1024, maxLabel: '50 MB' } as const;

/**
 * Downloads a feed with the global `fetch` and streams it into its parser as it arrives (UTF-8),
 * so a large document is never held whole. Redirects are followed (fetch allows http and https
 * only). The whole exchange, body included, must end within 30 s and stay within 50 MB.
 */
@Injectable()
export class FeedFetcher {
  async fetchInto(url: string, parser: FeedParser): Promise<FeedParseResult> {
    if (!isWebUrl(url)) throw new FeedDownloadError('The feed URL must be http or https.');
    const signal = AbortSignal.timeout(FEED_DOWNLOAD.timeoutMs);
    try {
      const res = await fetch(url, {
        signal,
        redirect: 'follow',
        headers: { accept: 'application/xml, text/xml, application/x-ndjson, application/jsonl, */*' },
      });
      if (!res.ok) {
        await res.body?.cancel().catch(() => undefined);
        throw new FeedDownloadError(`The feed URL answered HTTP ${res.status}.`);
      }
      const declared = Number(res.headers.get('content-length') ?? NaN);
      if (Number.isFinite(declared) && declared > FEED_DOWNLOAD.maxBytes) {
        await res.body?.cancel().catch(() => undefined);
        throw tooLarge();
      }
      if (!res.body) return parser.end();
      const reader = res.body.getReader();
      const decoder = new TextDecoder('utf-8');
      let bytes = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.byteLength;
        if (bytes > FEED_DOWNLOAD.maxBytes) {
          await reader.cancel().catch(() => undefined);
          throw tooLarge();
        }
        parser.write(decoder.decode(value, { stream: true }));
      }
      parser.write(decoder.decode());
      return parser.end();
    } catch (err) {
      if (err instanceof FeedDownloadError || err instanceof MalformedFeedError) throw err;
      if (signal.aborted) throw new FeedDownloadError('The feed URL did not answer within 30 s.');
      throw new FeedDownloadError(`The feed URL could not be read (${networkCause(err)}).`);
    }
  }
}

const tooLarge = () => new FeedDownloadError(`The feed is larger than ${FEED_DOWNLOAD.maxLabel}.`);

export const isWebUrl = (text: string): boolean => {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
};

/** A short cause: the system error code (ECONNREFUSED, ENOTFOUND…), else fetch's own reason. */
function networkCause(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (cause && typeof cause.message === 'string' && cause.message.length <= 100) return cause.message;
  const name = (err as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' ? name : 'unknown error';
}
