import { preparedRows, type Statement } from '@app/platform/core';
import { LeadAccess } from '@app/crm';
import { leadSharesSql } from '../../libs/crm/src/domain/lead-reach';
import {
  EstimatedConcept,
  Estimates,
  RetrievalLimits,
  retrieveNewest,
} from '../../libs/search/src/application/retrieval';
import { RecentIndexes } from '../../libs/search/src/application/recent-indexes';
import { insertChunksStatement } from '../../libs/search/src/application/search-index.sql';
import { recentIndexBound } from '../../libs/search/src/domain/recent-indexes';
import {
  CandidateRow,
  lexemeEstimatesStatement,
  SAMPLED_FLOOR_FROM,
  SearchFilters,
  SearchReach,
  sliceFloorsStatement,
} from '../../libs/search/src/application/search.sql';
import { Agency, sql, TestApp } from '../fixtures';

/**
 * The retrieval plan (README "Search", "Retrieval plan") on a real index: a common concept read in
 * date slices takes the same newest matches as a whole read, a first slice that held too few is
 * followed by the next ones in the same statement (the last reads everything older), one that held
 * four fifths of the share is enough, and a lead or an `occurredTo` reads whole. The bounds are
 * lowered (`RetrievalLimits`) so 600 passages make a concept common.
 */
describe('search retrieval plan: date slices on a real index', () => {
  let t: TestApp;
  let a: Agency;
  let reach: SearchReach;
  const leadIds: number[] = [];
  const HOUR = 3_600_000;
  const newest = Date.parse('2026-11-20T12:00:00Z');
  /** Windows once a concept is expected in more than 10 passages; 40 newest matches a concept. */
  const SMALL: RetrievalLimits = { newestMatches: 40, wholeReadMatches: 10 };
  const WHOLE: RetrievalLimits = { newestMatches: 40, wholeReadMatches: Number.MAX_SAFE_INTEGER };

  beforeAll(async () => {
    t = await TestApp.start({ env: { LOG_LEVEL: 'error' } });
    a = await t.seed.agency('Retrieval Plan');
    // the second lead is the member's: a third of the passages are in their reach
    for (let i = 0; i < 3; i++) {
      leadIds.push((await t.seed.lead(a.admin, i === 1 ? { assigneeIds: [a.member.userId] } : {})).id);
    }
    // 600 passages an hour apart: every one says hipoteca; one in 40 also says casa rural
    const rows = Array.from({ length: 600 }, (_, i) => ({
      leadId: leadIds[i % 3],
      sourceKind: 'note',
      sourceId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      position: 0,
      occurredAt: new Date(newest - i * HOUR),
      language: 'es',
      text: `Hablamos de la hipoteca del piso ${i}.${i % 40 === 7 ? ' Prefieren una casa rural.' : ' La casa tiene un jardín rural.'}`,
      untrusted: false,
    }));
    await rowsOf(insertChunksStatement(a.admin.organizationId, rows));
    await sql(t, 'analyze search_chunk');
    reach = {
      organizationId: a.admin.organizationId,
      own: null,
      shared: leadSharesSql({ organizationId: a.admin.organizationId, userId: a.admin.userId }),
    };
  });
  afterAll(() => t.stop());

  /** A statement through the platform's runner (pg binds arrays as arrays; knex would spread them). */
  const rowsOf = <T>(statement: Statement) => preparedRows<T>(t.orm.em.fork(), statement, { prepare: false });

  /** Runs the plan, recording each statement it sends (as the admin, or in another reach). */
  const retrieve = async (
    concepts: EstimatedConcept[],
    limits: RetrievalLimits,
    filters: SearchFilters = {},
    as: SearchReach = reach,
  ): Promise<{ rows: CandidateRow[]; sent: Statement[] }> => {
    const sent: Statement[] = [];
    const run = <T>(statement: Statement) => {
      sent.push(statement);
      return rowsOf<T>(statement);
    };
    const [estimates] = await run<Estimates>(lexemeEstimatesStatement(a.admin.organizationId, []));
    const rows = await retrieveNewest(run, as, concepts, Number(estimates.chunks), filters, limits);
    return { rows, sent: sent.slice(1) };
  };
  const ids = (rows: CandidateRow[]) => rows.map((row) => String(row.id)).sort();
  const retrieves = (sent: Statement[]) => sent.filter((s) => s.sql.includes('found as ('));

  it('the organization’s passages and a word’s are estimated from the planner', async () => {
    const [estimates] = await rowsOf<Estimates>(
      lexemeEstimatesStatement(a.admin.organizationId, [`'hipoteca'`, `'zzqxv'`]),
    );
    const chunks = Number(estimates.chunks);
    const word = Number(estimates.lexemes[`'hipoteca'`]);
    const absent = Number(estimates.lexemes[`'zzqxv'`]);
    expect(chunks).toBeGreaterThan(500);
    // the planner takes the organization and the word as independent over the whole table, which
    // other suites write to at the same time: the word's estimate is the organization's share of
    // its passages everywhere, so it is bounded by the organization's passages and far above a word
    // no passage holds, not a fixed figure
    expect(word).toBeLessThanOrEqual(chunks);
    expect(word).toBeGreaterThan(10 * absent);
  });

  it('a common concept read in date slices takes the same newest matches as a whole read', async () => {
    const concept = { tsquery: `'hipoteca'`, estimate: 600 };
    const sliced = await retrieve([concept], SMALL);
    const whole = await retrieve([concept], WHOLE);
    expect(sliced.rows).toHaveLength(40);
    expect(ids(sliced.rows)).toEqual(ids(whole.rows));
    // the newest 40: passages 0-39
    expect(
      Math.min(...sliced.rows.map((r) => Date.parse(String(new Date(r.occurred_at).toISOString())))),
    ).toBe(newest - 39 * HOUR);
    expect(sliced.sent.some((s) => s.sql.includes('search_recent_floor'))).toBe(true);
    expect(retrieves(sliced.sent)).toHaveLength(1);
    expect(retrieves(sliced.sent)[0].sql).toContain('c.occurred_at >= ?');
    expect(retrieves(whole.sent)[0].sql).not.toContain('c.occurred_at >= ?');
    expect(sliced.rows[0].concept_found).toEqual({ 0: 40 });
  });

  it('a first slice that held too few is followed by the next ones, in the same statement', async () => {
    // the phrase is in 15 of 600 passages (one in 40), estimated as common as its words: the first
    // slice (the newest 16 passages) holds 1, the second (the 32 before) 1, the third (the 96
    // before those) 2, the last the rest
    const concept = { tsquery: `'casa' <-> 'rural'`, estimate: 600 };
    const sliced = await retrieve([concept], { newestMatches: 12, wholeReadMatches: 10 });
    const whole = await retrieve([concept], { newestMatches: 12, wholeReadMatches: Number.MAX_SAFE_INTEGER });
    expect(retrieves(sliced.sent)).toHaveLength(1);
    expect(retrieves(sliced.sent)[0].sql).toContain('s0_4 as (');
    expect(ids(sliced.rows)).toEqual(ids(whole.rows));
    expect(sliced.rows).toHaveLength(12);
  });

  it('a first slice that held four fifths of the share is enough: the next ones are not read', async () => {
    // estimated at 918 of about 600 passages: the first slice is the newest 34 or so, every one a
    // match, at least 32 (four fifths of 40); the second would have filled the share to 40
    const { rows, sent } = await retrieve([{ tsquery: `'hipoteca'`, estimate: 918 }], SMALL);
    expect(retrieves(sent)[0].sql).toContain('s0_2 as (');
    const found = rows[0].concept_found[0];
    expect(found).toBeGreaterThanOrEqual(32);
    expect(found).toBeLessThan(40);
    const dates = rows.map((r) => new Date(r.occurred_at).getTime());
    expect(Math.min(...dates)).toBe(newest - (found - 1) * HOUR);
  });

  it('a member reaching a third of the passages gets their newest matches through the later slices', async () => {
    const member: SearchReach = {
      organizationId: a.admin.organizationId,
      ...t.get(LeadAccess).searchSql(await t.seed.principal(a.member), 'l'),
    };
    const concept = { tsquery: `'hipoteca'`, estimate: 600 };
    const sliced = await retrieve([concept], SMALL, {}, member);
    const whole = await retrieve([concept], WHOLE, {}, member);
    // a third of the first slice's 52 passages, then of the second's 104: over four fifths of 40
    expect(retrieves(sliced.sent)[0].sql).toContain('s0_4 as (');
    expect(sliced.rows.length).toBeGreaterThanOrEqual(32);
    expect(whole.rows).toHaveLength(40);
    const newestFirst = [...whole.rows].sort(
      (x, y) => new Date(y.occurred_at).getTime() - new Date(x.occurred_at).getTime(),
    );
    expect(ids(sliced.rows)).toEqual(ids(newestFirst.slice(0, sliced.rows.length)));
    expect(new Set(sliced.rows.map((r) => Number(r.lead_id)))).toEqual(new Set([leadIds[1]]));
  });

  it('one lead, or an occurredTo, is read whole: the agency’s newest passages say nothing of them', async () => {
    const concept = { tsquery: `'hipoteca'`, estimate: 600 };
    const oneLead = await retrieve([concept], SMALL, { leadId: leadIds[1] });
    expect(oneLead.sent.some((s) => s.sql.includes('search_recent_floor'))).toBe(false);
    expect(new Set(oneLead.rows.map((r) => Number(r.lead_id)))).toEqual(new Set([leadIds[1]]));
    const earlier = await retrieve([concept], SMALL, { to: new Date(newest - 500 * HOUR) });
    expect(earlier.sent.some((s) => s.sql.includes('search_recent_floor'))).toBe(false);
    expect(earlier.rows).toHaveLength(40);
    expect(earlier.rows.every((r) => new Date(r.occurred_at).getTime() < newest - 500 * HOUR)).toBe(true);
  });

  it('a floor of many passages is read from the one-in-64 sample, within its spacing of the exact one', async () => {
    const floorsOf = async (rows: number[], sampledFrom?: number) =>
      (
        await rowsOf<{ rows: string; floor: Date | null }>(
          sliceFloorsStatement(a.admin.organizationId, rows, sampledFrom),
        )
      ).map((row) => (row.floor === null ? null : new Date(row.floor).getTime()));
    // below SAMPLED_FLOOR_FROM: exact (offset n: the passage n hours before the newest)
    expect(SAMPLED_FLOOR_FROM).toBeGreaterThan(600);
    expect(await floorsOf([1, 128, 320, 6400])).toEqual([
      newest - HOUR,
      newest - 128 * HOUR,
      newest - 320 * HOUR,
      null,
    ]);
    // from 128 on, sampled: one passage in 64 (their ids), so the (n / 64)-th newest of those lies
    // about n passages back, no nearer than n less a few passages other suites wrote between ours
    const [one, ...sampled] = await floorsOf([1, 128, 320, 6400], 128);
    expect(one).toBe(newest - HOUR);
    expect(sampled[2]).toBeNull();
    [128, 320].forEach((n, i) => {
      const back = (newest - sampled[i]!) / HOUR;
      expect(back).toBeGreaterThanOrEqual(n - 16);
      expect(back).toBeLessThanOrEqual(n + 128);
    });
    const [{ samples }] = await rowsOf<{ samples: string }>({
      sql: `select count(*) as samples from search_chunk
             where organization_id = ? and id % 64 = 0 and occurred_at = any(?::timestamptz[])`,
      params: [a.admin.organizationId, sampled.slice(0, 2).map((ms) => new Date(ms!))],
    });
    expect(Number(samples)).toBe(2);
  });

  it('each concept takes its own share: a rare one beside a common one is read whole', async () => {
    const { rows, sent } = await retrieve(
      [
        { tsquery: `'hipoteca'`, estimate: 600 },
        { tsquery: `'casa' <-> 'rural'`, estimate: 5 },
      ],
      SMALL,
    );
    const [statement] = retrieves(sent);
    expect(statement.sql).toContain('offset 0');
    expect(rows[0].concept_found).toEqual({ 0: 20, 1: 15 });
  });

  it('ranks each passage by the branches it holds a word of, the same ts_rank_cd as against the whole query', async () => {
    // four branches: an AND whose covers span other branches' words (the piso <-> jardin phrase
    // no passage holds, its words inside hipoteca … rural), a rare word, and a word nowhere
    const tsquery = `'hipoteca' & 'rural' | 'piso' <-> 'jardin' | 'prefieren' | 'garaje'`;
    const { rows, sent } = await retrieve([{ tsquery, estimate: 600 }], {
      newestMatches: 600,
      wholeReadMatches: Number.MAX_SAFE_INTEGER,
    });
    expect(retrieves(sent)[0].sql).toContain('array_to_string(array[case when');
    const whole = await rowsOf<{ id: string; rank: number }>({
      sql: 'select id, ts_rank_cd(tsv, ?::tsquery) as rank from search_chunk where id = any(?::bigint[])',
      params: [tsquery, rows.map((row) => row.id)],
    });
    const expected = new Map(whole.map((row) => [String(row.id), Number(row.rank)]));
    expect(rows).toHaveLength(200);
    for (const row of rows) expect(Number(row.rank)).toBeCloseTo(expected.get(String(row.id))!, 6);
    expect(new Set(expected.values()).size).toBeGreaterThan(1);
  });

  it('reads a concept of six alternatives or more by one index scan per alternative, the same matches', async () => {
    const tsquery = `'prefieren' | 'casa' <-> 'rural' | 'garaje' | 'piso' & 'jardin' | 'terraza' | 'trastero'`;
    const { rows, sent } = await retrieve([{ tsquery, estimate: 600 }], SMALL);
    const [statement] = retrieves(sent);
    expect(statement.sql).toContain('(c.tsv @@ ?::tsquery or c.tsv @@ ?::tsquery or');
    const newest = await rowsOf<{ id: string }>({
      sql: `select id from search_chunk where organization_id = ? and tsv @@ ?::tsquery
             order by occurred_at desc limit 40`,
      params: [a.admin.organizationId, tsquery],
    });
    expect(rows).toHaveLength(40);
    expect(ids(rows)).toEqual(newest.map((row) => String(row.id)).sort());
  });

  it('the vocabulary holds the passages’ words, accents folded', async () => {
    const words = await sql<{ word: string }>(
      t,
      `select word from search_word where organization_id = ? and word in ('hipoteca', 'jardin', 'jardín', 'de')`,
      [a.admin.organizationId],
    );
    expect(words.map((w) => w.word).sort()).toEqual(['hipoteca', 'jardin']);
  });

  describe('recent indexes (the job search.recent-indexes)', () => {
    const recentIndexes = () =>
      sql<{ name: string; valid: boolean; definition: string }>(
        t,
        `select c.relname as name, i.indisvalid as valid, pg_get_indexdef(i.indexrelid) as definition
           from pg_index i join pg_class c on c.oid = i.indexrelid
          where i.indrelid = 'search_chunk'::regclass and c.relname ~ '^search_chunk_(tsv|recent)_since_'
          order by c.relname`,
      );
    const day = (at: Date) => at.toISOString().slice(0, 10).replace(/-/g, '');
    class RolledBack extends Error {}

    /**
     * The plan of a slice's words and bound (no organization: only a GIN index can serve it) read by
     * bitmaps, in a transaction rolled back that dropped `indexes`.
     */
    const slicePlanWithout = async (indexes: string[], floor: Date): Promise<string> => {
      let plan = '';
      await t.orm.em
        .fork()
        .transactional(async (em) => {
          for (const index of indexes) await em.execute(`drop index ${index}`);
          await em.execute('set local enable_seqscan = off');
          await em.execute('set local enable_indexscan = off');
          const rows = await em.execute<{ 'QUERY PLAN': string }[]>(
            `explain (costs off) select c.id from search_chunk c
              where c.tsv @@ '''prefieren'' & ''rural'''::tsquery and c.occurred_at >= '${floor.toISOString()}'
              order by c.occurred_at desc limit 40`,
          );
          plan = rows.map((row) => row['QUERY PLAN']).join('\n');
          throw new RolledBack();
        })
        .catch((err: unknown) => {
          if (!(err instanceof RolledBack)) throw err;
        });
      return plan;
    };

    afterAll(async () => {
      // leave the indexes of today's bound, as the migration built them
      await t.get(RecentIndexes).roll(new Date());
    });

    it('the migration built this month’s: a GIN on tsv and a date index from the bound, used by a slice within it', async () => {
      const now = new Date();
      const bound = recentIndexBound(now);
      expect(await t.get(RecentIndexes).roll(now)).toEqual({
        since: bound.toISOString().slice(0, 10),
        created: [],
        dropped: [],
      });
      const indexes = await recentIndexes();
      expect(indexes.map((i) => [i.name, i.valid])).toEqual([
        [`search_chunk_recent_since_${day(bound)}`, true],
        [`search_chunk_tsv_since_${day(bound)}`, true],
      ]);
      expect(indexes[1].definition).toContain('USING gin (tsv) WHERE (occurred_at >= ');
      // the planner proves a slice's bound implies the predicate (the statement planned with its
      // values): with the full GIN index and the indexes holding dates gone, a slice from after the bound
      // reads the recent GIN index, a slice reaching back before it cannot
      const others = [
        'search_chunk_tsv_idx',
        'search_chunk_recent_idx',
        'search_chunk_lead_idx',
        `search_chunk_recent_since_${day(bound)}`,
      ];
      const within = await slicePlanWithout(others, new Date(bound.getTime() + 10 * 24 * HOUR));
      expect(within).toContain(`Bitmap Index Scan on search_chunk_tsv_since_${day(bound)}`);
      const before = await slicePlanWithout(others, new Date(bound.getTime() - 10 * 24 * HOUR));
      expect(before).not.toContain('_since_');
    });

    it('a roll in a later month builds the new bound’s indexes, then drops the old ones; a second roll does nothing', async () => {
      const now = new Date();
      const later = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 3, 15));
      const [old, next] = [recentIndexBound(now), recentIndexBound(later)];
      expect(await t.get(RecentIndexes).roll(later)).toEqual({
        since: next.toISOString().slice(0, 10),
        created: [`search_chunk_tsv_since_${day(next)}`, `search_chunk_recent_since_${day(next)}`],
        dropped: [`search_chunk_recent_since_${day(old)}`, `search_chunk_tsv_since_${day(old)}`],
      });
      expect((await recentIndexes()).map((i) => [i.name, i.valid])).toEqual([
        [`search_chunk_recent_since_${day(next)}`, true],
        [`search_chunk_tsv_since_${day(next)}`, true],
      ]);
      expect(await t.get(RecentIndexes).roll(later)).toMatchObject({ created: [], dropped: [] });
      // the same newest matches through the new indexes (every passage here is older than their bound)
      const tsquery = `'prefieren' & 'rural'`;
      const { rows } = await retrieve([{ tsquery, estimate: 600 }], SMALL);
      const newestRows = await rowsOf<{ id: string }>({
        sql: `select id from search_chunk where organization_id = ? and tsv @@ ?::tsquery order by occurred_at desc limit 40`,
        params: [a.admin.organizationId, tsquery],
      });
      expect(ids(rows)).toEqual(newestRows.map((row) => String(row.id)).sort());
    });

    it('rebuilds an index a failed concurrent build left invalid', async () => {
      const now = new Date();
      const bound = recentIndexBound(now);
      await t.get(RecentIndexes).roll(now);
      const name = `search_chunk_tsv_since_${day(bound)}`;
      // what an interrupted `create index concurrently` leaves behind: an index PostgreSQL does not use
      await sql(t, `update pg_index set indisvalid = false where indexrelid = '${name}'::regclass`);
      expect(await t.get(RecentIndexes).roll(now)).toMatchObject({ created: [name], dropped: [] });
      expect((await recentIndexes()).find((i) => i.name === name)?.valid).toBe(true);
    });
  });
});
