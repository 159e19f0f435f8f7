import { reusable } from './orm-options';

describe('reusable: which pooled connections the pool may hand out', () => {
  it('takes an idle connection', () => {
    expect(reusable({ getTransactionStatus: (): string => 'I', _activeQuery: null, _queryQueue: [] })).toBe(
      true,
    );
  });

  it.each([
    ['inside a transaction a failed ROLLBACK left open', { getTransactionStatus: (): string => 'T' }],
    ['inside an aborted transaction', { getTransactionStatus: (): string => 'E' }],
    [
      'still awaiting an answer a timeout gave up on',
      { getTransactionStatus: (): string => 'I', _activeQuery: {} },
    ],
    ['with queries still queued', { getTransactionStatus: (): string => 'I', _queryQueue: [{}] }],
  ])('refuses one %s', (_case, connection) => {
    expect(reusable(connection)).toBe(false);
  });
});
