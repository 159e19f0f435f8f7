import type { Statement } from '@app/platform/core';
import {
  conceptMatchesEstimate,
  firstSliceRows,
  slicesOf,
  tsqueryBranches,
  WHOLE_READ_MATCHES,
  withoutStopWords,
} from '../domain/retrieval-plan';
import { isStopWord } from '../domain/stopwords';
import {
  CandidateRow,
  NEWEST_MATCHES,
  retrieveStatement,
  RetrieveConcept,
  RetrieveOrder,
  SearchFilters,
  SearchReach,
  sliceFloorsStatement,
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

/** The retrieval plan's two bounds (a test lowers them to see slices on a small index). */
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
 * Retrieval (README "Search", "Retrieval plan"): each concept's newest matches, whole or in date
 * slices sized from its estimate (`retrieval-plan.ts`), ranked in one statement (the slices past
 * the first are read only when the first held too few). With `leadId` or `occurredTo` no slices
 * are used (the newest passages of the organization say nothing about one lead's or an earlier
 * period's).
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
    .map((concept) => ({
      ...concept,
      tsquery: [
        ...new Set(tsqueryBranches(concept.tsquery).map((b) => withoutStopWords(b, isStopWord))),
      ].join(' | '),
    }))
    .filter((concept) => concept.tsquery !== '');
  if (wanted.length === 0) return [];
  const share = Math.max(1, Math.ceil(limits.newestMatches / wanted.length));
  const whole = [...new Set(wanted.flatMap((concept) => tsqueryBranches(concept.tsquery)))].join(' | ');
  const sliced = filters.leadId === undefined && filters.to === undefined;
  const firsts = wanted.map((concept) =>
    sliced ? firstSliceRows(concept.estimate, share, chunks, limits.wholeReadMatches) : null,
  );
  const floors = await floorsOf(run, reach.organizationId, firsts);
  const retrieve: RetrieveConcept[] = wanted.map((concept, i) => ({
    tsquery: concept.tsquery,
    ...slicesOf(
      firsts[i] === null ? null : (floors.get(firsts[i]) ?? null),
      floors.get(1) ?? null,
      filters.from,
    ),
  }));
  return run<CandidateRow>(retrieveStatement(reach, retrieve, whole, filters, share, order), true);
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

/** The first slices' lower bounds, and the newest passage's date (the floor of 1 passage). */
async function floorsOf(
  run: StatementRunner,
  organizationId: string,
  firsts: (number | null)[],
): Promise<Map<number, Date | null>> {
  const distinct = [...new Set(firsts.filter((rows): rows is number => rows !== null))];
  if (distinct.length === 0) return new Map();
  const rows = await run<{ rows: string; floor: Date | string | null }>(
    sliceFloorsStatement(organizationId, [1, ...distinct]),
  );
  return new Map(rows.map((row) => [Number(row.rows), row.floor === null ? null : new Date(row.floor)]));
}
