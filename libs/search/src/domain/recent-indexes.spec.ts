import { recentIndexBound, recentIndexDefinitions, recentIndexPlan } from './recent-indexes';

describe('recent indexes', () => {
  it('start on the first day of the month two months before now, in UTC', () => {
    expect(recentIndexBound(new Date('2026-11-25T10:00:00Z')).toISOString()).toBe('2026-09-01T00:00:00.000Z');
    expect(recentIndexBound(new Date('2026-02-01T00:00:00Z')).toISOString()).toBe('2025-12-01T00:00:00.000Z');
    // the last instant of a month in UTC is still that month, whatever the local time zone says
    expect(recentIndexBound(new Date('2026-03-31T23:59:59Z')).toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });

  it('are a GIN index on tsv and a date index, both over the passages from the bound on', () => {
    const [tsv, recent] = recentIndexDefinitions(new Date('2026-09-01T00:00:00Z'));
    expect(tsv.name).toBe('search_chunk_tsv_since_20260901');
    expect(tsv.create).toBe(
      "create index concurrently if not exists search_chunk_tsv_since_20260901 on search_chunk using gin (tsv) where occurred_at >= '2026-09-01 00:00:00+00'",
    );
    expect(recent.name).toBe('search_chunk_recent_since_20260901');
    expect(recent.create).toContain(
      'on search_chunk (organization_id, occurred_at desc) where occurred_at >=',
    );
  });

  const now = new Date('2026-11-25T10:00:00Z');

  it('build the month’s indexes before dropping the older ones', () => {
    const plan = recentIndexPlan(now, [
      { name: 'search_chunk_tsv_since_20260801', valid: true },
      { name: 'search_chunk_recent_since_20260801', valid: true },
      { name: 'search_chunk_tsv_idx', valid: true },
    ]);
    expect(plan.since).toBe('2026-09-01');
    expect(plan.created).toEqual(['search_chunk_tsv_since_20260901', 'search_chunk_recent_since_20260901']);
    expect(plan.dropped).toEqual(['search_chunk_recent_since_20260801', 'search_chunk_tsv_since_20260801']);
    expect(plan.statements).toEqual([
      expect.stringMatching(/^create index concurrently if not exists search_chunk_tsv_since_20260901 on /),
      expect.stringMatching(
        /^create index concurrently if not exists search_chunk_recent_since_20260901 on /,
      ),
      'drop index concurrently if exists search_chunk_recent_since_20260801',
      'drop index concurrently if exists search_chunk_tsv_since_20260801',
    ]);
  });

  it('do nothing when the month’s indexes are there and valid', () => {
    const plan = recentIndexPlan(now, [
      { name: 'search_chunk_tsv_since_20260901', valid: true },
      { name: 'search_chunk_recent_since_20260901', valid: true },
    ]);
    expect(plan).toEqual({ since: '2026-09-01', created: [], dropped: [], statements: [] });
  });

  it('rebuild what a failed concurrent build left invalid, and drop a newer bound', () => {
    const plan = recentIndexPlan(now, [
      { name: 'search_chunk_tsv_since_20260901', valid: false },
      { name: 'search_chunk_recent_since_20260901', valid: true },
      { name: 'search_chunk_tsv_since_20261101', valid: true },
    ]);
    expect(plan.created).toEqual(['search_chunk_tsv_since_20260901']);
    expect(plan.dropped).toEqual(['search_chunk_tsv_since_20261101']);
    expect(plan.statements).toEqual([
      'drop index concurrently if exists search_chunk_tsv_since_20260901',
      expect.stringContaining('create index concurrently if not exists search_chunk_tsv_since_20260901 '),
      'drop index concurrently if exists search_chunk_tsv_since_20261101',
    ]);
  });
});
