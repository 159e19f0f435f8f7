import { FeedListing, InvalidFeedEntry, normaliseFeedEntry, RawFeedEntry } from './feed-entry';

/** The feed formats an agency can connect (`property_feeds.source`, the listings' `source`). */
export const FEED_SOURCES = ['kyero', 'redsp', 'jsonfeed'] as const;
export type FeedSource = (typeof FEED_SOURCES)[number];

/** What a parsed feed holds: its valid entries (one per external id) and how many were skipped. */
export interface FeedParseResult {
  entries: FeedListing[];
  /** Entries left out: invalid, or an earlier copy of an id the feed repeats (the last one wins). */
  skipped: number;
  /** Why the first few were skipped, for `lastError`-style reporting. */
  issues: string[];
}

/** A parser fed the document in chunks (as it downloads), then asked for the result. */
export interface FeedParser {
  write(chunk: string): void;
  /** The result; throws `MalformedFeedError` when the document is not a feed of its format. */
  end(): FeedParseResult;
}

/** The document as a whole is not a feed of its format: the import fails and nothing changes. */
export class MalformedFeedError extends Error {}

const MAX_ISSUES = 5;

/** Normalises entries as a parser finds them; invalid ones are counted, never fatal. */
export class FeedResultCollector {
  private readonly byId = new Map<string, FeedListing>();
  private skipped = 0;
  private readonly issues: string[] = [];

  /** Maps and normalises one entry; a throw from either skips the entry. */
  add(read: () => RawFeedEntry): void {
    try {
      const entry = normaliseFeedEntry(read());
      if (this.byId.has(entry.externalId)) {
        this.byId.delete(entry.externalId);
        this.skip(`entry ${entry.externalId}: repeated (the last copy is kept)`);
      }
      this.byId.set(entry.externalId, entry);
    } catch (err) {
      this.skip(err instanceof InvalidFeedEntry ? err.message : 'an entry could not be read');
    }
  }

  skip(why: string): void {
    this.skipped += 1;
    if (this.issues.length < MAX_ISSUES) this.issues.push(why);
  }

  result(): FeedParseResult {
    return { entries: [...this.byId.values()], skipped: this.skipped, issues: [...this.issues] };
  }
}

/** Runs `parser` over a whole document held in memory (tests, small feeds). */
export function parseWhole(parser: FeedParser, document: string): FeedParseResult {
  parser.write(document);
  return parser.end();
}
