import { depthOf, heightOf, isWithin, placementProblem } from './folder-tree';

/** a > b > c > d > e (five levels), x at the root, y under x. */
const parents = new Map<string, string | null>([
  ['a', null],
  ['b', 'a'],
  ['c', 'b'],
  ['d', 'c'],
  ['e', 'd'],
  ['x', null],
  ['y', 'x'],
]);

describe('folder tree', () => {
  it('measures depth from the root and height of a subtree', () => {
    expect(['a', 'b', 'e', 'x', 'y'].map((id) => depthOf(id, parents))).toEqual([1, 2, 5, 1, 2]);
    expect(['a', 'c', 'e', 'x'].map((id) => heightOf(id, parents))).toEqual([5, 3, 1, 2]);
    expect(isWithin('e', 'b', parents)).toBe(true);
    expect(isWithin('b', 'e', parents)).toBe(false);
    expect(isWithin('b', 'b', parents)).toBe(true);
  });

  it('a new folder: up to five levels', () => {
    expect(placementProblem(null, null, parents, 5)).toBeNull();
    expect(placementProblem(null, 'd', parents, 5)).toBeNull();
    expect(placementProblem(null, 'e', parents, 5)).toBe('too-deep');
  });

  it('a move: never under itself or a descendant; its whole subtree must fit', () => {
    expect(placementProblem('b', 'b', parents, 5)).toBe('cycle');
    expect(placementProblem('b', 'e', parents, 5)).toBe('cycle');
    expect(placementProblem('a', 'c', parents, 5)).toBe('cycle');
  });

  it('counts the moved subtree against the limit', () => {
    expect(placementProblem('x', 'c', parents, 5)).toBe(null);
    expect(placementProblem('x', 'd', parents, 5)).toBe('too-deep');
    expect(placementProblem('y', 'd', parents, 5)).toBeNull();
    expect(placementProblem('c', null, parents, 5)).toBeNull();
    expect(placementProblem('c', 'x', parents, 5)).toBeNull(); // 1 + 3
    expect(placementProblem('c', 'y', parents, 5)).toBeNull(); // 2 + 3
    expect(placementProblem('b', 'y', parents, 5)).toBe('too-deep'); // 2 + 4
  });

  it('a loop in stored data never hangs', () => {
    const looped = new Map<string, string | null>([
      ['p', 'q'],
      ['q', 'p'],
    ]);
    expect(depthOf('p', looped)).toBe(Number.POSITIVE_INFINITY);
    expect(placementProblem(null, 'p', looped, 5)).toBe('too-deep');
    expect(heightOf('p', looped)).toBeGreaterThan(0);
  });
});
