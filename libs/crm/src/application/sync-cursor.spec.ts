import {
  canonicalTimestamp,
  cursorChecksum,
  decodeCursor,
  encodeCursor,
  startOf,
  SyncList,
  toMillis,
} from './sync-cursor';

const LEADS: SyncList = { kind: 'leads', reach: 'agency' };
const TASKS: SyncList = { kind: 'tasks' };
const b64 = (text: string) => Buffer.from(text).toString('base64url');
/** A cursor with these fields and a correct checksum: only the fields' own rules can refuse it. */
const summed = (fields: { l: string; t: string; i: unknown }) =>
  b64(JSON.stringify({ ...fields, c: cursorChecksum(fields.l, fields.t, String(fields.i)) }));
const AT = '2026-11-24T09:30:00.000000Z';

describe('canonicalTimestamp', () => {
  it.each([
    ['1970-01-01T00:00:00Z', '1970-01-01T00:00:00.000000Z'],
    ['2026-11-24T09:30:00.5Z', '2026-11-24T09:30:00.500000Z'],
    ['2026-11-24T10:30:00+01:00', '2026-11-24T09:30:00.000000Z'],
    ['2026-11-24T04:00:00-0530', '2026-11-24T09:30:00.000000Z'],
    ['2026-11-24T10:30+01', '2026-11-24T09:30:00.000000Z'],
    ['2026-11-24T09:30:00.123456Z', '2026-11-24T09:30:00.123456Z'],
    // nanoseconds round up: rows are kept to the microsecond, "at or after" keeps its meaning
    ['2026-11-24T09:30:00.123456001Z', '2026-11-24T09:30:00.123457Z'],
    ['2026-11-24T09:30:59.9999999Z', '2026-11-24T09:31:00.000000Z'],
    ['2024-02-29T23:00:00-01:00', '2024-03-01T00:00:00.000000Z'],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000000Z'],
  ])('reads %s as %s', (text, canonical) => {
    expect(canonicalTimestamp(text)).toBe(canonical);
  });

  it.each([
    '2026-11-24',
    '2026-11-24T09:30:00',
    '2026-11-24 09:30:00Z',
    '2026-11-24t09:30:00z',
    '2026-13-01T00:00:00Z',
    '2026-02-29T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2026-11-24T24:00:00Z',
    '2026-11-24T09:60:00Z',
    '2026-11-24T09:30:60Z',
    '2026-11-24T09:30:00+24:00',
    '2026-11-24T09:30:00.Z',
    '2026-11-24T09:30:00.1234567890Z',
    '0000-06-01T00:00:00Z',
    '0001-01-01T00:00:00+01:00',
    '9999-12-31T23:30:00-01:00',
    '+02026-11-24T09:30:00Z',
    '2026-11-24T09:30:00 01:00',
    'yesterday',
    '',
  ])('refuses %j', (text) => {
    expect(canonicalTimestamp(text)).toBeNull();
  });

  it('answers milliseconds, as every other time the API answers', () => {
    expect(toMillis('2026-11-24T09:30:00.123456Z')).toBe('2026-11-24T09:30:00.123Z');
  });
});

describe('cursors', () => {
  it('round-trip a position on the list that made them', () => {
    const position = { at: '2026-11-24T09:30:00.123456Z', id: '42' };
    const cursor = encodeCursor(LEADS, position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(LEADS, cursor)).toEqual({ position });
    const task = { at: position.at, id: '0195f2a4-7b1c-7d2e-8f30-123456789abc' };
    expect(decodeCursor(TASKS, encodeCursor(TASKS, task))).toEqual({ position: task });
  });

  it('start at updatedSince with the lowest id, so rows at exactly that time are kept', () => {
    expect(startOf(LEADS, '2026-11-24T10:30:00+01:00')).toEqual({
      at: '2026-11-24T09:30:00.000000Z',
      id: '0',
    });
    expect(startOf(TASKS, '2026-11-24T09:30:00Z')).toEqual({
      at: '2026-11-24T09:30:00.000000Z',
      id: '00000000-0000-0000-0000-000000000000',
    });
    expect(startOf(LEADS, '2026-11-24')).toBeNull();
  });

  it('refuse a cursor of another list, another reach or another lead', () => {
    const position = { at: '2026-11-24T09:30:00.000000Z', id: '0195f2a4-7b1c-7d2e-8f30-123456789abc' };
    const ofNotes = encodeCursor({ kind: 'notes', leadId: 7 }, position);
    expect(decodeCursor({ kind: 'notes', leadId: 8 }, ofNotes)).toEqual({ problem: expect.any(String) });
    expect(decodeCursor(TASKS, ofNotes)).toEqual({ problem: expect.any(String) });
    const ofMember = encodeCursor({ kind: 'leads', reach: 'own' }, { at: position.at, id: '5' });
    expect(decodeCursor(LEADS, ofMember)).toEqual({ problem: expect.stringContaining('start again') });
  });

  it.each([
    ['not base64url', 'a+b/c='],
    ['not JSON', b64('{"l":"leads/agency"')],
    ['an array', b64(`["leads/agency","${AT}","1"]`)],
    ['no checksum', b64(`{"l":"leads/agency","t":"${AT}","i":"1"}`)],
    [
      'a wrong checksum',
      b64(`{"l":"leads/agency","t":"${AT}","i":"2","c":"${cursorChecksum('leads/agency', AT, '1')}"}`),
    ],
    [
      'an extra field',
      b64(
        JSON.stringify({
          ...JSON.parse(Buffer.from(summed({ l: 'leads/agency', t: AT, i: '1' }), 'base64url').toString()),
          x: 1,
        }),
      ),
    ],
    ['a number id', summed({ l: 'leads/agency', t: AT, i: 1 })],
    ['a negative id', summed({ l: 'leads/agency', t: AT, i: '-1' })],
    ['an id past 2^53', summed({ l: 'leads/agency', t: AT, i: '9007199254740993' })],
    ['an id with SQL', summed({ l: 'leads/agency', t: AT, i: "1' or 1=1" })],
    ['a time to the millisecond', summed({ l: 'leads/agency', t: '2026-11-24T09:30:00.000Z', i: '1' })],
    ['an impossible time', summed({ l: 'leads/agency', t: '2026-02-30T09:30:00.000000Z', i: '1' })],
    ['an offset time', summed({ l: 'leads/agency', t: '2026-11-24T09:30:00.000000+01:00', i: '1' })],
    ['an unknown list', summed({ l: 'leads/everything', t: AT, i: '1' })],
    ['a non-canonical encoding', `${encodeCursor(LEADS, { at: AT, id: '1' })}A`],
    ['an empty string', ''],
    ['too long', 'A'.repeat(600)],
  ])('refuse %s', (_label, cursor) => {
    expect(decodeCursor(LEADS, cursor)).toEqual({ problem: expect.any(String) });
  });

  it('refuse every cursor with one character changed', () => {
    const cursor = encodeCursor(LEADS, { at: '2026-11-24T09:30:00.123456Z', id: '1234' });
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let at = 0; at < cursor.length; at++) {
      for (const c of alphabet) {
        if (c === cursor[at]) continue;
        const changed = cursor.slice(0, at) + c + cursor.slice(at + 1);
        expect(decodeCursor(LEADS, changed)).toEqual({ problem: expect.any(String) });
      }
    }
  });

  it('refuse a task cursor whose id is not a lower-case uuid', () => {
    const upper = b64(
      '{"l":"tasks","t":"2026-11-24T09:30:00.000000Z","i":"0195F2A4-7B1C-7D2E-8F30-123456789ABC"}',
    );
    expect(decodeCursor(TASKS, upper)).toEqual({ problem: expect.any(String) });
  });
});
