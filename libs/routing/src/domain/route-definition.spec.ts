import { DomainError } from '@app/platform/core';
import { validateRouteDefinition } from './route-definition';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const T = '00000000-0000-4000-8000-0000000000f1';

/** The issues' paths of a refused definition ([] when it is accepted). */
function pathsOf(input: unknown): string[] {
  try {
    validateRouteDefinition(input);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('VALIDATION_FAILED');
    return ((error as DomainError).details?.issues as { path: string }[]).map((issue) => issue.path);
  }
}

const condition = (field: string, operator: string, value: unknown) => ({
  type: 'group',
  combinator: 'and',
  children: [{ type: 'condition', field, operator, value }],
});

describe('validateRouteDefinition', () => {
  it('fills the defaults and takes userIds as a string or an array', () => {
    expect(validateRouteDefinition({ userIds: A })).toEqual({
      name: null,
      conditions: null,
      strategy: 'round_robin',
      paused: false,
      userIds: [A],
      teamIds: [],
      weights: null,
      schedule: null,
      dailyCap: null,
      reassignAfterMinutes: null,
    });
    const full = validateRouteDefinition({
      name: 'x'.repeat(80),
      conditions: condition('country', 'has_any_of', { kind: 'strings', values: ['ES'] }),
      strategy: 'weighted',
      paused: true,
      userIds: [A, B],
      weights: { [A]: 70, [B]: 30 },
      schedule: { zone: 'America/New_York', days: [{ day: 1, from: '09:00', to: '17:30' }] },
      dailyCap: 1000,
      reassignAfterMinutes: 10080,
    });
    expect(full).toMatchObject({ strategy: 'weighted', weights: { [A]: 70, [B]: 30 }, dailyCap: 1000 });
    expect(pathsOf({ dailyCap: 1, reassignAfterMinutes: 5, teamIds: [T], strategy: 'smart' })).toEqual([]);
  });

  it('refuses every limit with the path of its value', () => {
    expect(pathsOf({ name: 'x'.repeat(81) })).toEqual(['name']);
    expect(pathsOf({ dailyCap: 0 })).toEqual(['dailyCap']);
    expect(pathsOf({ dailyCap: 1001 })).toEqual(['dailyCap']);
    expect(pathsOf({ dailyCap: 2.5 })).toEqual(['dailyCap']);
    expect(pathsOf({ reassignAfterMinutes: 4 })).toEqual(['reassignAfterMinutes']);
    expect(pathsOf({ reassignAfterMinutes: 10081 })).toEqual(['reassignAfterMinutes']);
    expect(pathsOf({ strategy: 'random' })).toEqual(['strategy']);
    expect(pathsOf({ paused: 'yes' })).toEqual(['paused']);
    expect(pathsOf({ userIds: ['nope'] })).toEqual(['userIds[0]']);
  });

  it('checks weights: weighted only, userIds only, 1-100 for exactly the pool, total 100', () => {
    expect(pathsOf({ strategy: 'weighted', userIds: [A, B], weights: { [A]: 50, [B]: 49 } })).toEqual([
      'weights',
    ]);
    expect(pathsOf({ strategy: 'round_robin', userIds: [A], weights: { [A]: 100 } })).toEqual(['weights']);
    expect(pathsOf({ strategy: 'weighted', userIds: [A], teamIds: [T], weights: { [A]: 100 } })).toEqual([
      'teamIds',
    ]);
    expect(pathsOf({ strategy: 'weighted', userIds: [A, B], weights: { [A]: 100 } })).toEqual([
      `weights.${B}`,
    ]);
    expect(pathsOf({ strategy: 'weighted', userIds: [A], weights: { [A]: 100, [B]: 0 } })).toEqual([
      `weights.${B}`,
    ]);
    expect(pathsOf({ strategy: 'weighted', userIds: [A, B], weights: { [A]: 100, [B]: 0 } })).toEqual([
      `weights.${B}`,
    ]);
    expect(pathsOf({ strategy: 'weighted', userIds: [A, B], weights: { [A]: 50.5, [B]: 49.5 } })).toEqual([
      `weights.${A}`,
      `weights.${B}`,
    ]);
    expect(pathsOf({ strategy: 'weighted', userIds: [A] })).toEqual(['weights']);
  });

  it('checks the schedule: IANA zone, day 1-7, HH:MM with from < to, at most 14 entries', () => {
    const entry = { day: 1, from: '09:00', to: '10:00' };
    expect(pathsOf({ schedule: { zone: 'Mars/Olympus', days: [entry] } })).toEqual(['schedule.zone']);
    expect(pathsOf({ schedule: { zone: '+01:00', days: [] } })).toEqual(['schedule.zone']);
    expect(pathsOf({ schedule: { zone: 'UTC', days: Array(15).fill(entry) } })).toEqual(['schedule.days']);
    expect(pathsOf({ schedule: { zone: 'UTC', days: Array(14).fill(entry) } })).toEqual([]);
    expect(
      pathsOf({
        schedule: {
          zone: 'UTC',
          days: [
            { ...entry, day: 0 },
            { ...entry, day: 8 },
          ],
        },
      }),
    ).toEqual(['schedule.days[0].day', 'schedule.days[1].day']);
    expect(pathsOf({ schedule: { zone: 'UTC', days: [{ day: 2, from: '10:00', to: '10:00' }] } })).toEqual([
      'schedule.days[0].to',
    ]);
    expect(pathsOf({ schedule: { zone: 'UTC', days: [{ day: 2, from: '9:00', to: '25:00' }] } })).toEqual([
      'schedule.days[0].from',
      'schedule.days[0].to',
    ]);
    expect(pathsOf({ schedule: { zone: 'UTC', days: [{ day: 7, from: '00:00', to: '24:00' }] } })).toEqual(
      [],
    );
  });

  it('takes conditions over routing facts only; $me and unknown facts are refused', () => {
    expect(
      pathsOf({ conditions: condition('tagIds', 'has_all_of', { kind: 'strings', values: [T] }) }),
    ).toEqual([]);
    expect(pathsOf({ conditions: condition('hasPhone', 'is_true', { kind: 'empty' }) })).toEqual([]);
    expect(
      pathsOf({ conditions: condition('arrivedAt', 'is_after', { kind: 'date', value: '2026-01-01' }) }),
    ).toEqual([]);
    expect(
      pathsOf({ conditions: condition('crmStatus', 'has_any_of', { kind: 'strings', values: ['lead'] }) }),
    ).toEqual(['conditions.children[0].field']);
    expect(
      pathsOf({ conditions: condition('source', 'has_any_of', { kind: 'strings', values: ['$me'] }) }),
    ).toEqual(['conditions.children[0].value.values[0]']);
    expect(
      pathsOf({ conditions: condition('tagIds', 'has_any_of', { kind: 'strings', values: ['vip'] }) }),
    ).toEqual(['conditions.children[0].value.values[0]']);
    expect(
      pathsOf({ conditions: condition('hasEmail', 'has_any_of', { kind: 'strings', values: ['x'] }) }),
    ).toEqual(['conditions.children[0].operator']);
    expect(pathsOf({ conditions: { type: 'group', combinator: 'xor', children: [] } })).toEqual([
      'conditions.combinator',
    ]);
    const deep = {
      type: 'group',
      combinator: 'and',
      children: [
        { type: 'group', combinator: 'or', children: [condition('source', 'is_present', { kind: 'empty' })] },
      ],
    };
    expect(pathsOf({ conditions: deep })).toEqual(['conditions.children[0].children[0]']);
  });
});
