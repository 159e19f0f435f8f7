import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { loggableError, scrubLogMessage, scrubText, sqlShape, withPreparedStatement } from './loggable-error';

/** A lead's values, as a failed insert would carry them. */
const EMAIL = 'marta.gil@example.test';
const PHONE = '+34 600 123 456';
const NAMES = ['Marta', 'Gil', "O''Neil", 'Gil Inversiones'];

/** What pg raises, after knex prefixed the statement with its values inlined. */
function knexError(message: string, sql: string, fields: Record<string, unknown> = {}) {
  return Object.assign(new Error(`${sql} - ${message}`), { severity: 'ERROR', ...fields });
}

const INSERT =
  `insert into "leads" ("organization_id", "first_name", "last_name", "email", "phone_number", "company_name", "score") ` +
  `values ('0195f3a2-7c4e-7d61-9a0b-5e1f2a3b4c5d', 'Marta', 'O''Neil', '${EMAIL}', '${PHONE}', 'Gil Inversiones', 42) returning "id"`;

const leaks = (logged: unknown) => {
  const line = JSON.stringify(logged);
  return [EMAIL, PHONE, '600 123', ...NAMES, '0195f3a2', '42)', 'already exists'].filter((value) =>
    line.includes(value),
  );
};

describe('loggableError', () => {
  it('keeps the class, the SQLSTATE, the statement shape and schema names; drops every value', () => {
    const pg = knexError('duplicate key value violates unique constraint "leads_email_key"', INSERT, {
      code: '23505',
      detail: `Key (email)=(${EMAIL}) already exists.`,
      table: 'leads',
      constraint: 'leads_email_key',
      schema: 'public',
    });
    const err = new UniqueConstraintViolationException(pg);

    const logged = loggableError(err);

    expect(logged).toEqual({
      name: 'UniqueConstraintViolationException',
      code: '23505',
      statement:
        'insert into "leads" ("organization_id", "first_name", "last_name", "email", "phone_number", "company_name", "score") values (?, ?, ?, ?, ?, ?, ?) returning "id"',
      message: 'duplicate key value violates unique constraint "leads_email_key"',
      table: 'leads',
      constraint: 'leads_email_key',
      stack: expect.stringMatching(/^at /),
    });
    expect(leaks(logged)).toEqual([]);
    expect(logged.stack).not.toContain('insert into');
  });

  it('takes out a value holding quotes, backslashes or " - " before looking for the separator', () => {
    const sql = `update "leads" set "notes" = E'a \\\\ b - c '' d', "updated_at" = '2026-01-02T03:04:05.000Z' where "id" = 7`;
    const logged = loggableError(
      knexError('value too long for type character varying(255)', sql, { code: '22001' }),
    );
    expect(logged).toMatchObject({
      code: '22001',
      statement: 'update "leads" set "notes" = ?, "updated_at" = ? where "id" = ?',
      message: 'value too long for type character varying(255)',
    });
  });

  it('scrubs a server message that carries a value itself (a trigger, a cast)', () => {
    const raised = loggableError(knexError(`planted failure: ${EMAIL}`, INSERT, { code: 'P0001' }));
    expect(raised.message).toBe('planted failure: ?');
    expect(leaks(raised)).toEqual([]);

    const cast = loggableError(
      knexError('invalid input syntax for type uuid: "Marta"', `select * from "leads" where "id" = 'Marta'`, {
        code: '22P02',
      }),
    );
    expect(cast).toMatchObject({
      statement: 'select * from "leads" where "id" = ?',
      message: 'invalid input syntax for type uuid: "?"',
    });
  });

  it('names a prepared statement by its name and $n text (no values were ever in it)', () => {
    const err = withPreparedStatement(
      Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
      'qAbC123',
      'select l.id\n  from leads l where l.organization_id = $1 and l.email = $2',
    );
    expect(loggableError(err)).toMatchObject({
      name: 'Error',
      code: '57014',
      statement: 'qAbC123: select l.id from leads l where l.organization_id = $1 and l.email = $2',
      message: 'canceling statement due to statement timeout',
    });
  });

  it('reads what String(err) made of an error', () => {
    expect(loggableError(`DriverException: ${INSERT} - Connection terminated unexpectedly`)).toEqual({
      name: 'DriverException',
      statement: expect.stringMatching(/^insert into "leads" .* values \(\?, \?, \?, \?, \?, \?, \?\)/),
      message: 'Connection terminated unexpectedly',
    });
    expect(leaks(loggableError(`error: ${INSERT} - boom`))).toEqual([]);
  });

  it("reads pino's serialized form (class in `type`, message in the stack's first line)", () => {
    const serialized = {
      type: 'DriverException',
      message: `${INSERT} - boom`,
      stack: `DriverException: ${INSERT} - boom\n    at run (/app/x.js:1:1)\n    at next (/app/y.js:2:2)`,
      code: '08006',
      detail: `Key (email)=(${EMAIL})`,
    };
    const logged = loggableError(serialized);
    expect(logged).toMatchObject({ name: 'DriverException', code: '08006', message: 'boom' });
    expect(logged.stack).toBe('at run (/app/x.js:1:1)\nat next (/app/y.js:2:2)');
    expect(leaks(logged)).toEqual([]);
  });

  it('gives the same line when logged twice (the filter reduces, then the logger serializes)', () => {
    const once = loggableError(
      new UniqueConstraintViolationException(knexError('boom', INSERT, { code: '23505' })),
    );
    expect(loggableError(once)).toEqual(once);
    expect(loggableError({ ...once, type: 'Object' })).toEqual(once);
  });

  it('leaves an error of our own code readable, its stack frames kept', () => {
    const err = new TypeError("Cannot read properties of undefined (reading 'id')");
    expect(loggableError(err)).toEqual({
      name: 'TypeError',
      message: 'Cannot read properties of undefined (reading ?)',
      stack: expect.stringMatching(/^at .*loggable-error\.spec\.ts/),
    });
    expect(
      loggableError(
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      ),
    ).toMatchObject({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' });
  });

  it('answers for anything thrown', () => {
    expect(loggableError(undefined)).toEqual({ name: 'Error', message: 'undefined' });
    expect(loggableError(null)).toEqual({ name: 'Error', message: 'null' });
    expect(loggableError(`reached ${EMAIL}`)).toEqual({ name: 'Error', message: 'reached ?' });
    expect(loggableError({ message: 7 })).toEqual({ name: 'Object', message: '' });
  });
});

describe('sqlShape and scrubText', () => {
  it('replaces literals and bare numbers, keeps identifiers and placeholders', () => {
    expect(
      sqlShape(`select "t1"."x2", $1 from t1 where a = 10 and b = -2.5e3 and c = 'x' and d = $q$it's$q$`),
    ).toBe('select "t1"."x2", $1 from t1 where a = ? and b = ? and c = ? and d = ?');
  });

  it('keeps the names of schema objects, masks other quoted words, emails and phone numbers', () => {
    expect(scrubText('relation "leads" does not exist')).toBe('relation "leads" does not exist');
    expect(scrubText('column "first_name" of relation "leads" is ambiguous')).toBe(
      'column "first_name" of relation "leads" is ambiguous',
    );
    expect(scrubText(`Unexpected token 'M', "Marta Gil" is not valid JSON`)).toBe(
      'Unexpected token ?, "?" is not valid JSON',
    );
    expect(scrubText(`call ${PHONE} or (600) 123-456 or mail ${EMAIL}`)).toBe('call ? or ? or mail ?');
    expect(scrubText('timeout after 2000 ms on 127.0.0.1:5432')).toBe(
      'timeout after 2000 ms on 127.0.0.1:5432',
    );
  });
});

describe('scrubLogMessage', () => {
  it('reduces a database error written as a string, leaves other messages alone but for emails', () => {
    expect(scrubLogMessage(`DriverException: ${INSERT} - planted failure: ${EMAIL}`)).toBe(
      'DriverException: insert into "leads" ("organization_id", "first_name", "last_name", "email", "phone_number", "company_name", "score") values (?, ?, ?, ?, ?, ?, ?) returning "id" - planted failure: ?',
    );
    expect(scrubLogMessage('API listening on http://localhost:3000 (docs: /docs)')).toBe(
      'API listening on http://localhost:3000 (docs: /docs)',
    );
    expect(scrubLogMessage(`invitation sent to ${EMAIL}`)).toBe('invitation sent to ?');
  });
});

describe('long input', () => {
  it('stays quick and bounded on a huge message or statement', () => {
    const rows = Array.from({ length: 5_000 }, (_, i) => `('Name${i}', 'lead${i}@example.test', ${i})`).join(
      ', ',
    );
    const logged = loggableError(
      new Error(`insert into "leads" ("n", "e", "x") values ${rows} - boom ${'x'.repeat(100_000)}`),
    );
    expect(logged.statement).toMatch(
      /^insert into "leads" \("n", "e", "x"\) values \(\?, \?, \?\), \(\?, \?, \?\)/,
    );
    expect(logged.statement!.length).toBeLessThanOrEqual(500);
    expect(logged.message.length).toBeLessThanOrEqual(500);
    expect(JSON.stringify(logged)).not.toMatch(/Name\d|lead\d/);
    expect(scrubText('a'.repeat(200_000)).length).toBeLessThanOrEqual(500);
  });
});
