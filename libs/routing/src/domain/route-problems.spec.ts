import { routeProblems } from './route-problems';
import type { RouteSnapshot, RoutingSnapshot } from './routing-engine';
import type { FactGroup } from './routing-facts';

const [A, B, C] = ['a', 'b', 'c'].map((c) => `00000000-0000-4000-8000-00000000000${c}`);
const NOW = new Date('2026-03-10T12:00:00Z');
const spanish: FactGroup = {
  type: 'group',
  combinator: 'and',
  children: [
    {
      type: 'condition',
      field: 'language',
      operator: 'has_any_of',
      value: { kind: 'strings', values: ['es'] },
    },
  ],
};

const route = (id: string, over: Partial<RouteSnapshot> = {}): RouteSnapshot => ({
  id,
  name: id,
  conditions: spanish,
  strategy: 'round_robin',
  paused: false,
  pool: [A, B],
  weights: null,
  schedule: null,
  dailyCap: null,
  state: { lastAssigneeId: null, received: {}, today: null },
  ...over,
});

const problemsOf = (routes: RouteSnapshot[], over: Partial<RoutingSnapshot> = {}) =>
  routeProblems(
    {
      routes,
      activeUserIds: [A, B],
      awayUntil: {},
      smartRouting: { enabled: false, team: [] },
      receivedToday: {},
      openLeads: {},
      lastAssignedAt: {},
      ...over,
    },
    NOW,
  ).map(({ ruleId, code }) => `${ruleId}:${code}`);

describe('routeProblems', () => {
  it('reports nothing for a healthy route', () => {
    expect(
      problemsOf([
        route('ok', {
          dailyCap: 5,
          schedule: { zone: 'UTC', days: [{ day: 2, from: '09:00', to: '17:00' }] },
        }),
      ]),
    ).toEqual([]);
  });

  it('finds every problem code, each with one sentence', () => {
    const routes = [
      route('empty', { pool: [C] }),
      route('away'),
      route('weights', { strategy: 'weighted', pool: [A, B, C], weights: { [A]: 40, [B]: 40, [C]: 20 } }),
      route('never', { schedule: { zone: 'Europe/Madrid', days: [] } }),
      route('capped', {
        pool: [A, B, C],
        dailyCap: 2,
        state: {
          lastAssigneeId: null,
          received: {},
          today: { day: '2026-03-10', counts: { [A]: 2, [B]: 3 } },
        },
      }),
      route('yesterday', {
        dailyCap: 2,
        state: {
          lastAssigneeId: null,
          received: {},
          today: { day: '2026-03-09', counts: { [A]: 2, [B]: 3 } },
        },
      }),
      route('all', { conditions: null, pool: [C, A] }),
      route('after', { name: null }),
    ];
    const full = routeProblems(
      {
        routes,
        activeUserIds: [A, B],
        awayUntil: {},
        smartRouting: { enabled: false, team: [] },
        receivedToday: {},
        openLeads: {},
        lastAssignedAt: {},
      },
      NOW,
    );
    for (const problem of full) expect(problem.sentence).toMatch(/^[A-Z][^.]*\.$/);
    expect(full.find((p) => p.ruleId === 'after')?.sentence).toBe(
      'Route #8 is never reached: Route "all" above it takes every lead at any time.',
    );

    const codes = problemsOf(routes, { awayUntil: {} });
    expect(codes).toEqual([
      'empty:EMPTY_POOL',
      'weights:WEIGHTS_NOT_100',
      'never:NEVER_OPEN',
      'capped:DAILY_CAP_REACHED',
      'after:UNREACHABLE',
    ]);
    // ALL_AWAY: both active members away now (a past time counts as back)
    expect(
      problemsOf([route('away')], { awayUntil: { [A]: '2026-03-11', [B]: '2026-03-10T12:00:01Z' } }),
    ).toEqual(['away:ALL_AWAY']);
    expect(
      problemsOf([route('away')], { awayUntil: { [A]: '2026-03-11', [B]: '2026-03-10T11:00:00Z' } }),
    ).toEqual([]);
  });

  it('UNREACHABLE only below an unpaused catch-all with no schedule, no cap and someone in its pool', () => {
    const catchAll = (over: Partial<RouteSnapshot>) => [
      route('first', { conditions: null, ...over }),
      route('second'),
    ];
    expect(problemsOf(catchAll({}))).toEqual(['second:UNREACHABLE']);
    expect(problemsOf(catchAll({ conditions: { type: 'group', combinator: 'and', children: [] } }))).toEqual([
      'second:UNREACHABLE',
    ]);
    expect(problemsOf(catchAll({ paused: true }))).toEqual([]);
    expect(problemsOf(catchAll({ dailyCap: 10 }))).toEqual([]);
    expect(
      problemsOf(catchAll({ schedule: { zone: 'UTC', days: [{ day: 1, from: '00:00', to: '24:00' }] } })),
    ).toEqual([]);
    expect(problemsOf(catchAll({ pool: [C] }))).toEqual(['first:EMPTY_POOL']);
  });
});
