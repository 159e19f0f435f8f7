import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { cappedResult, OffsetResult, offsetResult, pageResult, wholeList } from './paging';
import { OffsetQueryDto, PageQueryDto } from './paging.dto';

const rows = (n: number, from = 0): number[] => Array.from({ length: n }, (_, i) => from + i);

describe('pageResult (page number paging)', () => {
  it('says there is more while page * limit is below the total', () => {
    expect(pageResult(rows(10), 1, 10, 25)).toEqual({
      data: rows(10),
      hasMore: true,
      page: 1,
      limit: 10,
      total: 25,
    });
    expect(pageResult(rows(10, 10), 2, 10, 25).hasMore).toBe(true);
  });

  it('ends on the last page, full or not', () => {
    expect(pageResult(rows(5, 20), 3, 10, 25).hasMore).toBe(false);
    expect(pageResult(rows(10, 10), 2, 10, 20).hasMore).toBe(false);
  });

  it('answers an empty list and a page past the end without more', () => {
    expect(pageResult([], 1, 10, 0)).toEqual({ data: [], hasMore: false, page: 1, limit: 10, total: 0 });
    expect(pageResult([], 9, 10, 25)).toMatchObject({ data: [], hasMore: false, total: 25 });
  });
});

describe('offsetResult (offset paging)', () => {
  it('gives the next offset while there is more', () => {
    expect(offsetResult(rows(20), 0, 45)).toEqual({
      data: rows(20),
      hasMore: true,
      nextOffset: 20,
      total: 45,
    });
    expect(offsetResult(rows(20, 20), 20, 45)).toMatchObject({ hasMore: true, nextOffset: 40 });
  });

  it('ends with nextOffset null', () => {
    expect(offsetResult(rows(5, 40), 40, 45)).toEqual({
      data: rows(5, 40),
      hasMore: false,
      nextOffset: null,
      total: 45,
    });
    expect(offsetResult(rows(20, 20), 20, 40)).toMatchObject({ hasMore: false, nextOffset: null });
  });

  it('answers an offset past the end with no more', () => {
    expect(offsetResult([], 100, 45)).toEqual({ data: [], hasMore: false, nextOffset: null, total: 45 });
  });

  it('never sends a client back to the same offset (rows removed between count and read)', () => {
    // no snapshot: the count still sees 30 rows, the page read finds none left at offset 20
    const result = offsetResult([], 20, 30);
    expect(result.hasMore).toBe(false);
    expect(result.nextOffset).toBeNull();
  });

  it('walks a whole list with nextOffset and sees every row once', () => {
    const all = rows(47);
    const seen: number[] = [];
    let offset: number | null = 0;
    for (let calls = 0; offset !== null; calls++) {
      if (calls > 10) throw new Error('paging does not end');
      const page: OffsetResult<number> = offsetResult(all.slice(offset, offset + 20), offset, all.length);
      seen.push(...page.data);
      offset = page.hasMore ? page.nextOffset : null;
    }
    expect(seen).toEqual(all);
  });
});

describe('cappedResult (capped lists, older-than)', () => {
  it('keeps at most the cap and says more when the extra row came back', () => {
    expect(cappedResult(rows(6), 5)).toEqual({ data: rows(5), hasMore: true });
  });

  it('says no more when exactly the cap came back', () => {
    expect(cappedResult(rows(5), 5)).toEqual({ data: rows(5), hasMore: false });
    expect(cappedResult([], 5)).toEqual({ data: [], hasMore: false });
  });
});

describe('wholeList', () => {
  it('is everything with hasMore false', () => {
    expect(wholeList(rows(3))).toEqual({ data: rows(3), hasMore: false });
  });
});

describe('paging query DTOs', () => {
  const Page = PageQueryDto({ max: 100, default: 25 });
  const Offset = OffsetQueryDto({ max: 50, default: 20 });

  /** What the global validation pipe does with a query: transform, then validate. */
  const parse = <T extends object>(cls: new () => T, query: Record<string, unknown>) => {
    const value = plainToInstance(cls, query);
    const failed = validateSync(value, { whitelist: true }).map((e) => e.property);
    return { value, failed };
  };

  it('defaults page and limit', () => {
    expect(parse(Page, {})).toEqual({ value: expect.objectContaining({ page: 1, limit: 25 }), failed: [] });
    expect(parse(Offset, {})).toEqual({
      value: expect.objectContaining({ offset: 0, limit: 20 }),
      failed: [],
    });
  });

  it('reads the numbers of the query string', () => {
    expect(parse(Page, { page: '3', limit: '100' })).toEqual({
      value: expect.objectContaining({ page: 3, limit: 100 }),
      failed: [],
    });
    expect(parse(Offset, { offset: '40', limit: '1' }).value).toMatchObject({ offset: 40, limit: 1 });
  });

  it.each([
    ['page', '0'],
    ['page', '-1'],
    ['page', 'abc'],
    ['page', '1.5'],
    ['page', ''],
    ['limit', '0'],
    ['limit', '101'],
    ['limit', 'ten'],
  ])('refuses %s=%p', (name, value) => {
    expect(parse(Page, { [name]: value }).failed).toEqual([name]);
  });

  it.each([
    ['offset', '-1'],
    ['offset', 'x'],
    ['limit', '51'],
  ])('refuses offset paging %s=%p', (name, value) => {
    expect(parse(Offset, { [name]: value }).failed).toEqual([name]);
  });

  it.each(['0x10', '1e2', '2,5', ' '])('refuses the non-decimal number %p', (value) => {
    expect(parse(Page, { page: value }).failed).toEqual(['page']);
    expect(parse(Offset, { offset: value }).failed).toEqual(['offset']);
  });

  it('refuses a repeated parameter', () => {
    expect(parse(Page, { page: ['1', '2'] }).failed).toEqual(['page']);
  });

  it('keeps each route its own range', () => {
    const Small = PageQueryDto({ max: 10, default: 5 });
    expect(parse(Small, {}).value).toMatchObject({ limit: 5 });
    expect(parse(Small, { limit: '11' }).failed).toEqual(['limit']);
    expect(parse(Page, { limit: '11' }).failed).toEqual([]);
  });
});
