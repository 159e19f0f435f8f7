import { DependencyUnavailableError } from './domain-error';
import { isDependencyUnavailable } from './unavailable';

const pgError = (code: string, message = 'server message') => Object.assign(new Error(message), { code });

describe('isDependencyUnavailable: the one table of "not now" errors (503, never 500)', () => {
  it.each([
    ['shutting down (57P01)', pgError('57P01', 'terminating connection due to administrator command')],
    ['crash shutdown (57P02)', pgError('57P02')],
    ['starting up (57P03)', pgError('57P03', 'the database system is starting up')],
    ['too many clients (53300)', pgError('53300', 'sorry, too many clients already')],
    ['reserved slots (53300)', pgError('53300', 'remaining connection slots are reserved')],
    ['out of memory (53200)', pgError('53200')],
    ['connection failure (08006)', pgError('08006')],
    ['connection rejected (08004)', pgError('08004')],
    ['statement timeout (57014)', pgError('57014', 'canceling statement due to statement timeout')],
    ['lock timeout (55P03)', pgError('55P03', 'canceling statement due to lock timeout')],
    ['idle in transaction timeout (25P03)', pgError('25P03')],
    ['serialization failure (40001)', pgError('40001')],
    ['deadlock (40P01)', pgError('40P01')],
    [
      'connection refused',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    ],
    ['connection reset', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['broken pipe', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })],
    [
      'pool acquire timeout',
      Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), {
        name: 'KnexTimeoutError',
      }),
    ],
    [
      'pool acquire timeout, wrapped',
      new Error('Knex: Timeout acquiring a connection. The pool is probably full.'),
    ],
    ['ORM connection error', Object.assign(new Error('x'), { name: 'ConnectionException' })],
    ['connection lost', new Error('Connection terminated unexpectedly')],
    ['connection lost, through knex', new Error('COMMIT; - Connection terminated unexpectedly')],
    ['connect timeout', new Error('Connection terminated due to connection timeout')],
    ['pg connect timeout', new Error('timeout expired')],
    ['client broken', new Error('Client has encountered a connection error and is not queryable')],
    ['read timeout (frozen server)', new Error('Query read timeout')],
    [
      'transaction connection died',
      new Error('Transaction query already complete, run with DEBUG=knex:tx for more info'),
    ],
    ['ours', new DependencyUnavailableError('database did not answer')],
  ])('%s → unavailable', (_kind, err) => {
    expect(isDependencyUnavailable(err)).toBe(true);
  });

  it.each([
    ['nothing', null],
    ['a string', 'Connection terminated'],
    ['unique violation (23505)', pgError('23505', 'duplicate key value violates unique constraint')],
    ['syntax error (42601)', pgError('42601')],
    ['check violation (23514)', pgError('23514')],
    [
      'a server message that only mentions a connection',
      pgError('P0001', 'Connection terminated by trigger'),
    ],
    ['a programming error', new TypeError("Cannot read properties of undefined (reading 'id')")],
  ])('%s → not unavailable', (_kind, err) => {
    expect(isDependencyUnavailable(err)).toBe(false);
  });
});
