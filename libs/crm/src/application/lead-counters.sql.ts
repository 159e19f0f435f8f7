/**
 * Folds the lead counters' appended rows back into one row per key (the function of the
 * `lead_counter_deltas` migration): exact at every moment, since reads sum the rows.
 */
export const compactLeadCounters = () => ({ sql: 'select lead_counters_compact()', params: [] });
