import { closeUnusableOnRelease, reusable } from './orm-options';

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
    ['closed on release but not yet taken out', { getTransactionStatus: (): string => 'I', _ending: true }],
    ['broken by a connection error', { getTransactionStatus: (): string => 'I', _queryable: false }],
  ])('refuses one %s', (_case, connection) => {
    expect(reusable(connection)).toBe(false);
  });
});

describe('closeUnusableOnRelease', () => {
  const given = () => {
    let listener: ((connection: object) => void) | undefined;
    closeUnusableOnRelease({ on: (_event, l) => (listener = l as (connection: object) => void) });
    return (connection: object) => listener!(connection);
  };

  it('closes a connection given back with an answer still awaited or a transaction open', async () => {
    const release = given();
    const ended: string[] = [];
    const end = (name: string) => async () => void ended.push(name);
    release({ getTransactionStatus: () => 'I', _activeQuery: {}, end: end('timed out') });
    release({ getTransactionStatus: () => 'T', end: end('left open') });
    release({ getTransactionStatus: () => 'I', _activeQuery: null, _queryQueue: [], end: end('idle') });
    expect(ended).toEqual(['timed out', 'left open']);
  });
});
