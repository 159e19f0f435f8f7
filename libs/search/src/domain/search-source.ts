/** The record kinds search covers, as evidence names them (`source`). */
export const SEARCH_SOURCES = ['note', 'transcript', 'analysis', 'message', 'email', 'task'] as const;
export type SearchSourceKind = (typeof SEARCH_SOURCES)[number];

/** Issue 18 "Rerank": how much a passage of each kind weighs. */
export const SOURCE_WEIGHTS: Record<SearchSourceKind, number> = {
  analysis: 1.2,
  note: 1.1,
  transcript: 1.0,
  message: 1.0,
  email: 0.9,
  task: 0.8,
};

/** Issue 18 "Rerank": a passage's weight halves every 365 days. */
export const RECENCY_HALF_LIFE_DAYS = 365;
