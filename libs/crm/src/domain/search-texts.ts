/**
 * Issue 18 item 1: what the search index reads of each CRM record, and which records were written
 * by a customer or a third party (`untrusted`). One place for each rule: the services index with
 * them on every write and `search:reindex` rebuilds with them, so both say the same. Pure.
 */
import { type Direction, type EmailSource, emailDirection } from './records';

/** The parts of a stored call analysis the index reads (INTERFACES.md "Ingestion"). */
export interface AnalysisText {
  summary: string;
  objections: { topic: string; quote?: string | null }[];
  nextSteps: { text: string }[];
  coachingTips: { tip: string }[];
}

const filled = (part: string | null | undefined): part is string =>
  typeof part === 'string' && part.trim() !== '';

/** A task: its title, then its description on the next line when it has one. */
export const taskSearchText = (title: string, description: string | null | undefined): string =>
  [title, description].filter(filled).join('\n');

/** An email: its subject, a blank line, its body. */
export const emailSearchText = (subject: string, bodyText: string): string =>
  [subject, bodyText].filter(filled).join('\n\n');

/**
 * A call analysis as one text, one item per line: the summary, each objection (its topic, then
 * the customer's words when quoted), each next step, each coaching tip.
 */
export function analysisSearchText(analysis: AnalysisText): string {
  return [
    analysis.summary,
    ...analysis.objections.map((o) => (filled(o.quote) ? `${o.topic}: ${o.quote}` : o.topic)),
    ...analysis.nextSteps.map((s) => s.text),
    ...analysis.coachingTips.map((c) => c.tip),
  ]
    .filter(filled)
    .join('\n');
}

/** An inbound chat message is the customer's words. */
export const messageIsUntrusted = (direction: Direction): boolean => direction === 'inbound';

/** An inbound email (a captured one the agency received) is a third party's words. */
export const emailIsUntrusted = (
  source: EmailSource,
  captureDirection: Direction | null | undefined,
): boolean => emailDirection(source, captureDirection) === 'inbound';

/** A transcript holds the customer's words; notes, tasks and analyses are the agency's own. */
export const TRANSCRIPT_IS_UNTRUSTED = true;
