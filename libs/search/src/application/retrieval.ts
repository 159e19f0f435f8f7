import type { Statement } from '@app/platform/core';
import {
  conceptMatchesEstimate,
  firstWindow,
  WHOLE_READ_MATCHES,
  MAX_PASSES,
  tsqueryBranches,
  widened,
} from '../domain/retrieval-plan';
import {
  CandidateRow,
  NEWEST_MATCHES,
  retrieveStatement,
  RetrieveConcept,
  RetrieveOrder,
  SearchFilters,
  SearchReach,
  windowFloorsStatement,
} from './search.sql';

/**
 * Runs a statement and answers its rows: the API's `preparedRows` on the request's entity
 * manager, the benchmark baseline's pool. `unprepared`: planned with this call's values.
 */
export type StatementRunner = <T>(statement: Statement, unprepared?: boolean) => Promise<T[]>;

/** A concept to retrieve: its tsquery text and the planner's estimate of its matches. */
export interface EstimatedConcept {
  tsquery: string;
  estimate: number;
}

/** The planner's estimates as the statements answer them. */
export interface Estimates {
  /** The organization's passages. */
  chunks: number | string;
  /** Passages holding each lexeme (a tsquery text such as `'garden'`). */
  lexemes: Record<string, number | string>;
}

/** The retrieval plan's two bounds (a test lowers them to see windows on a small index). */
export interface RetrievalLimits {
  /** Newest matches ranked at most, shared equally by the concepts. */
  newestMatches: number;
  /** A concept expected in at most this many passages is read whole. */
  wholeReadMatches: number;
}

export const RETRIEVAL_LIMITS: RetrievalLimits = {
  newestMatches: NEWEST_MATCHES,
  wholeReadMatches: WHOLE_READ_MATCHES,
};

/**
 * Retrieval (README "Search", "Retrieval plan"): each concept's newest matches, whole or in a date
 * window sized from its estimate (`retrieval-plan.ts`), ranked in one statement; a window that
 * held fewer matches than the concept's share is widened and the statement run again (three
 * passes at most, the last reads whole). With `leadId` or `occurredTo` no window is used (the
 * newest passages of the organization say nothing about one lead's or an earlier period's).
 */
export async function retrieveNewest(
  run: StatementRunner,
  reach: SearchReach,
  concepts: EstimatedConcept[],
  chunks: number,
  filters: SearchFilters,
  limits: RetrievalLimits = RETRIEVAL_LIMITS,
  order: RetrieveOrder = 'relevance',
): Promise<CandidateRow[]> {
  const wanted = concepts
    .map((concept) => ({ ...concept, tsquery: tsqueryBranches(concept.tsquery).join(' | ') }))
    .filter((concept) => concept.tsquery !== '');
  if (wanted.length === 0) return [];
  const share = Math.max(1, Math.ceil(limits.newestMatches / wanted.length));
  const whole = [...new Set(wanted.flatMap((concept) => tsqueryBranches(concept.tsquery)))].join(' | ');
  const windowed = filters.leadId === undefined && filters.to === undefined;
  let windows = wanted.map((concept) =>
    windowed ? firstWindow(concept.estimate, share, chunks, limits.wholeReadMatches) : null,
  );
  for (let pass = 1; ; pass++) {
    const floors = await floorsOf(run, reach.organizationId, windows);
    const bounds = windows.map((rows) => floorOf(rows, floors, filters.from));
    const retrieve: RetrieveConcept[] = wanted.map((concept, i) => ({
      tsquery: concept.tsquery,
      floor: bounds[i].floor,
    }));
    const rows = await run<CandidateRow>(
      retrieveStatement(reach, retrieve, whole, filters, share, order),
      true,
    );
    const found = rows[0]?.concept_found ?? {};
    const short = bounds.map((bound, i) => bound.widenable && Number(found[i] ?? 0) < share);
    if (!short.includes(true) || pass >= MAX_PASSES) return rows;
    windows = windows.map((rows, i) =>
      short[i] && rows !== null
        ? pass + 1 >= MAX_PASSES
          ? null
          : widened(rows, chunks, Number(found[i] ?? 0), share)
        : rows,
    );
  }
}

/** Each concept's expected matches from the lexeme estimates (`conceptMatchesEstimate`). */
export function estimatedConcepts(tsqueries: string[], estimates: Estimates): EstimatedConcept[] {
  const lexemes = new Map(Object.entries(estimates.lexemes).map(([lexeme, n]) => [lexeme, Number(n)]));
  return tsqueries.map((tsquery) => ({
    tsquery,
    estimate: conceptMatchesEstimate(tsqueryBranches(tsquery), lexemes),
  }));
}

/**
 * The concepts to retrieve from `conceptQueriesStatement`'s answer (`queries`: `[concept, kind,
 * tsquery]`, kind `all` or `own`): each concept with its alternatives, or by the caller's forms
 * alone when those are common (expected in more than `WHOLE_READ_MATCHES` passages).
 */
export function conceptsToRetrieve(
  planned: Estimates & { queries: [number, string, string][] },
  wholeReadMatches = WHOLE_READ_MATCHES,
): EstimatedConcept[] {
  const byConcept = new Map<number, { all?: string; own?: string }>();
  for (const [concept, kind, tsquery] of planned.queries) {
    const entry = byConcept.get(Number(concept)) ?? {};
    entry[kind as 'all' | 'own'] = tsquery;
    byConcept.set(Number(concept), entry);
  }
  return [...byConcept.keys()]
    .sort((a, b) => a - b)
    .map((concept) => {
      const { all = '', own = '' } = byConcept.get(concept)!;
      const [whole, mine] = estimatedConcepts([all, own], planned);
      return mine.tsquery !== '' && mine.estimate > wholeReadMatches ? mine : whole;
    });
}

async function floorsOf(
  run: StatementRunner,
  organizationId: string,
  windows: (number | null)[],
): Promise<Map<number, Date | null>> {
  const distinct = [...new Set(windows.filter((rows): rows is number => rows !== null))];
  if (distinct.length === 0) return new Map();
  const rows = await run<{ rows: string; floor: Date | string | null }>(
    windowFloorsStatement(organizationId, distinct),
  );
  return new Map(rows.map((row) => [Number(row.rows), row.floor === null ? null : new Date(row.floor)]));
}

/**
 * A window's lower bound (null: none, the organization has fewer passages than the window), or the
 * caller's `occurredFrom` when later: then widening would change nothing.
 */
function floorOf(
  rows: number | null,
  floors: Map<number, Date | null>,
  from: Date | undefined,
): { floor: Date | null; widenable: boolean } {
  const floor = rows === null ? null : (floors.get(rows) ?? null);
  if (floor === null) return { floor: null, widenable: false };
  if (from !== undefined && from >= floor) return { floor: from, widenable: false };
  return { floor, widenable: true };
}
