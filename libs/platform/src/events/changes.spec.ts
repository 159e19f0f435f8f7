import { viewChanges } from './changes';

describe('viewChanges', () => {
  it('names the top-level fields whose JSON differs, in the view’s order, with their old values', () => {
    const before = {
      id: 'a',
      title: 'Flat',
      tags: ['x'],
      amount: null as string | null,
      updatedAt: '2026-01-01',
    };
    const after = { id: 'a', title: 'Flat', tags: ['x', 'y'], amount: '10.00', updatedAt: '2026-01-02' };
    expect(viewChanges(before, after)).toEqual({
      changedFields: ['tags', 'amount'],
      previous: { tags: ['x'], amount: null },
    });
  });

  it('never counts updatedAt or an ignored field; nothing changed → no fields', () => {
    expect(viewChanges({ a: 1, updatedAt: 'x', b: 2 }, { a: 1, updatedAt: 'y', b: 3 }, ['b'])).toEqual({
      changedFields: [],
      previous: {},
    });
  });

  it('a field new in the view was null before; nested objects compare by value', () => {
    expect(viewChanges({ o: { k: 1 } } as Record<string, unknown>, { o: { k: 1 }, n: 'v' })).toEqual({
      changedFields: ['n'],
      previous: { n: null },
    });
  });
});
