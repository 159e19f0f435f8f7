import { Writable } from 'node:stream';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { pinoHttp } from 'pino-http';
import { AppConfig } from './app-config';
import { pinoOptions } from './logging.module';

const EMAIL = 'marta.gil@example.test';
const INSERT = `insert into "leads" ("first_name", "email") values ('Marta', '${EMAIL}') returning "id"`;
const failedInsert = () =>
  new UniqueConstraintViolationException(
    Object.assign(new Error(`${INSERT} - duplicate key value violates unique constraint "leads_email_key"`), {
      code: '23505',
      detail: `Key (email)=(${EMAIL}) already exists.`,
    }),
  );

/** The app's pino (as nestjs-pino builds it through pino-http), writing into an array. */
function logger() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  const { logger } = pinoHttp(pinoOptions(AppConfig.fromEnv({ LOG_LEVEL: 'info' })), sink);
  return { logger, lines };
}

describe('the logger keeps customer data out', () => {
  it('reduces an error logged as `err`, whether an Error or String(err)', () => {
    const { logger: log, lines } = logger();
    log.error({ err: failedInsert() }, 'job failed');
    log.warn({ err: String(failedInsert()) }, 'idempotency store unavailable; request runs unprotected');

    const expected = {
      name: 'UniqueConstraintViolationException',
      statement: 'insert into "leads" ("first_name", "email") values (?, ?) returning "id"',
      message: 'duplicate key value violates unique constraint "leads_email_key"',
    };
    expect(lines[0].err).toEqual({ ...expected, code: '23505', stack: expect.any(String) });
    expect(lines[1].err).toEqual(expected);
    expect(JSON.stringify(lines)).not.toMatch(/Marta|marta\.gil/);
  });

  it('reduces a stringified database error written as the message', () => {
    const { logger: log, lines } = logger();
    log.warn({ context: 'KeyUsage' }, String(failedInsert()));
    log.info({ context: 'API' }, 'API listening on http://localhost:3000 (docs: /docs)');

    expect(lines.map((line) => line.msg)).toEqual([
      'UniqueConstraintViolationException: insert into "leads" ("first_name", "email") values (?, ?) returning "id" - duplicate key value violates unique constraint "leads_email_key"',
      'API listening on http://localhost:3000 (docs: /docs)',
    ]);
  });

  it('still redacts credentials', () => {
    const { logger: log, lines } = logger();
    log.info(
      { req: { headers: { authorization: 'Bearer svc_pk_secret', 'x-api-key': 'svc_pk_other' } } },
      'request',
    );
    expect(JSON.stringify(lines)).not.toContain('svc_pk_');
  });
});
