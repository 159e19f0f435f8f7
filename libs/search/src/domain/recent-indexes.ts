/**
 * The recent indexes (README "Search", "Index"): a GIN index on `tsv` and a date index,
 * both partial, over the passages from a moving bound on. A common word's newest matches are read
 * in date slices, and a slice's GIN scan reads the word's whole posting list, three years of it,
 * to keep the last few weeks; with the partial GIN it reads only the recent months' (the planner
 * proves a slice's bound implies the index's predicate: the statement is planned with its
 * values). The full indexes stay for everything else. Pure: the names, the definitions and the
 * plan of a roll; `RecentIndexes` runs it.
 */

/** The indexes cover the passages from the first day of the month this many months before now's. */
export const RECENT_INDEX_MONTHS = 2;

/** The name of a recent index: what it indexes and the day its passages start (UTC). */
export const RECENT_INDEX_NAME = /^search_chunk_(tsv|recent)_since_(\d{8})$/;

/** An index of `search_chunk` named like a recent index, and whether PostgreSQL may use it. */
export interface ExistingIndex {
  name: string;
  valid: boolean;
}

/** What a roll does: the statements in order (none when there is nothing to do). */
export interface RecentIndexPlan {
  /** The bound the indexes should have, as `YYYY-MM-DD`. */
  since: string;
  created: string[];
  dropped: string[];
  statements: string[];
}

/**
 * The bound for `now`: midnight UTC of the first day of the month `RECENT_INDEX_MONTHS` before
 * now's (covering two to three months; it moves once a month, so an index is built once a month).
 */
export function recentIndexBound(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - RECENT_INDEX_MONTHS, 1));
}

/** The two recent indexes from `bound`: their names and `create index concurrently` statements. */
export function recentIndexDefinitions(bound: Date): { name: string; create: string }[] {
  const day = bound.toISOString().slice(0, 10);
  const suffix = day.replace(/-/g, '');
  const predicate = `where occurred_at >= '${day} 00:00:00+00'`;
  return [
    {
      name: `search_chunk_tsv_since_${suffix}`,
      create: `create index concurrently if not exists search_chunk_tsv_since_${suffix} on search_chunk using gin (tsv) ${predicate}`,
    },
    {
      name: `search_chunk_recent_since_${suffix}`,
      create: `create index concurrently if not exists search_chunk_recent_since_${suffix} on search_chunk (organization_id, occurred_at desc) ${predicate}`,
    },
  ];
}

/**
 * A roll at `now`: the indexes of `now`'s bound are built (a leftover of a failed concurrent build,
 * invalid, is dropped first), then every other recent index is dropped (older ones; a newer one a
 * clock set ahead built). Built before the old ones go, so a slice never lacks one.
 */
export function recentIndexPlan(now: Date, existing: ExistingIndex[]): RecentIndexPlan {
  const bound = recentIndexBound(now);
  const wanted = recentIndexDefinitions(bound);
  const names = new Set(wanted.map((index) => index.name));
  const found = new Map(
    existing.filter((index) => RECENT_INDEX_NAME.test(index.name)).map((i) => [i.name, i]),
  );
  const invalid = wanted.filter((index) => found.get(index.name)?.valid === false).map((index) => index.name);
  const missing = wanted.filter((index) => found.get(index.name)?.valid !== true);
  const others = [...found.keys()].filter((name) => !names.has(name)).sort();
  return {
    since: bound.toISOString().slice(0, 10),
    created: missing.map((index) => index.name),
    dropped: others,
    statements: [
      ...invalid.map(dropStatement),
      ...missing.map((index) => index.create),
      ...others.map(dropStatement),
    ],
  };
}

const dropStatement = (name: string) => `drop index concurrently if exists ${name}`;
