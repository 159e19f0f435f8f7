import { DomainError } from '../errors/domain-error';
import { databaseRefusal } from './database-refusal';

const pgError = (code: string) => Object.assign(new Error('refused'), { code });

describe('databaseRefusal', () => {
  it.each(['22001', '22003', '22007', '22008', '22021', '22P02', '2201X', '23502', '23514', '54000'])(
    'a value the database cannot hold (%s) → 400 VALIDATION_FAILED',
    (code) => {
      const refusal = databaseRefusal(pgError(code));
      expect(refusal).toBeInstanceOf(DomainError);
      expect(refusal?.code).toBe('VALIDATION_FAILED');
    },
  );

  it.each(['23503', '23505'])('a race lost to another request (%s) → 409 CONFLICT', (code) => {
    expect(databaseRefusal(pgError(code))?.code).toBe('CONFLICT');
  });

  it.each([
    ['a dependency down', pgError('57P01')],
    ['a statement timeout', pgError('57014')],
    ['a syntax error (ours)', pgError('42601')],
    ['a socket error', pgError('ECONNRESET')],
    ['no code', new Error('x')],
    ['not an error', 'x'],
    ['null', null],
  ])('anything else (%s) is not one', (_label, err) => {
    expect(databaseRefusal(err)).toBeNull();
  });
});
