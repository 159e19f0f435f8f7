/** The connected feed formats: pure parsers from a document (streamed in chunks) to listing rows. */
import { FeedParser, FeedSource } from './feed-parser';
import { jsonFeedParser } from './jsonfeed';
import { kyeroParser } from './kyero';
import { redspParser } from './redsp';

export * from './feed-entry';
export * from './feed-parser';
export { parseKyero } from './kyero';
export { parseRedsp } from './redsp';
export { parseJsonFeed } from './jsonfeed';

/** A fresh streaming parser for `source`. */
export const feedParserFor = (source: FeedSource): FeedParser =>
  source === 'kyero' ? kyeroParser() : source === 'redsp' ? redspParser() : jsonFeedParser();
