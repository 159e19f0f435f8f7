import type { RouteStrategy } from './route-definition';
import { decide, type RouteSnapshot, type RoutingDecision, type RoutingSnapshot } from './routing-engine';
import type { FactGroup, RoutingFacts } from './routing-facts';

const [A, B, C, D, E] = ['a', 'b', 'c', 'd', 'e'].map((c) => `00000000-0000-4000-8000-00000000000${c}`);
const NOW = new Date('2026-03-10T12:00:00Z'); // a Tuesday

const facts = (over: Partial<RoutingFacts> = {}): RoutingFacts => ({
  source: 'idealista',
  origin: 'portal:idealista',
  leadType: 'buyer',
  language: 'es',
  country: 'ES',
  tagIds: [],
  growthAreaId: null,
  hasPhone: true,
  hasEmail: false,
  arrivedAt: NOW.toISOString(),
  ...over,
});

const route = (id: string, over: Partial<RouteSnapshot> = {}): RouteSnapshot => ({
  id,
  name: id,
  conditions: null,
  strategy: 'round_robin',
  paused: false,
  pool: [A, B, C],
  weights: null,
  schedule: null,
  dailyCap: null,
  state: { lastAssigneeId: null, received: {}, today: null },
  ...over,
});

const snapshot = (routes: RouteSnapshot[], over: Partial<RoutingSnapshot> = {}): RoutingSnapshot => ({
  routes,
  activeUserIds: [A, B, C, D, E],
  awayUntil: {},
  smartRouting: { enabled: false, team: [] },
  receivedToday: {},
  openLeads: {},
  lastAssignedAt: {},
  ...over,
});

/** What the DB layer does with a decision: bump the route's state and the per-person counters. */
function apply(snap: RoutingSnapshot, decision: RoutingDecision, day: string, at: Date): void {
  const userId = decision.userId;
  if (!userId) return;
  snap.receivedToday[userId] = (snap.receivedToday[userId] ?? 0) + 1;
  snap.openLeads[userId] = (snap.openLeads[userId] ?? 0) + 1;
  snap.lastAssignedAt[userId] = at.toISOString();
  const taken = snap.routes.find((r) => r.id === decision.ruleId);
  if (!taken) return;
  const state = taken.state;
  state.lastAssigneeId = userId;
  state.received[userId] = (state.received[userId] ?? 0) + 1;
  if (!state.today || state.today.day !== day) state.today = { day, counts: {} };
  state.today.counts[userId] = (state.today.counts[userId] ?? 0) + 1;
}

function run(snap: RoutingSnapshot, times: number, day = '2026-03-10'): (string | null)[] {
  const out: (string | null)[] = [];
  for (let i = 0; i < times; i++) {
    const decision = decide(snap, facts(), NOW);
    apply(snap, decision, day, NOW);
    out.push(decision.userId);
  }
  return out;
}

const group = (field: string, operator: string, value: unknown): FactGroup =>
  ({
    type: 'group',
    combinator: 'and',
    children: [{ type: 'condition', field, operator, value }],
  }) as FactGroup;

describe('decide: strategies', () => {
  it('round_robin takes the next after the last assignee in pool order, skipping who cannot receive', () => {
    const snap = snapshot([route('r1', { state: { lastAssigneeId: B, received: {}, today: null } })]);
    expect(run(snap, 5)).toEqual([C, A, B, C, A]);
    snap.awayUntil[B] = '2026-03-11T00:00:00Z';
    expect(run(snap, 3)).toEqual([C, A, C]);
    const decision = decide(snap, facts(), NOW);
    expect(decision.steps).toEqual([
      { ruleId: 'r1', outcome: 'assigned', skipped: [{ userId: B, reason: 'away' }] },
    ]);
    expect(decision).toMatchObject({
      userId: A,
      ruleId: 'r1',
      routeName: 'r1',
      strategy: 'round_robin',
      smartRouting: false,
    });
    expect(decision.why).toBe(
      `Route "r1" assigned ${A}: it takes every lead and ${A} was next in round robin.`,
    );
  });

  it('weighted: largest deficit, ties by pool order, shares over 1,000 within one lead of exact', () => {
    const weights = { [A]: 50, [B]: 30, [C]: 20 };
    const snap = snapshot([route('w', { strategy: 'weighted', weights })]);
    expect(run(snap, 10)).toEqual([A, B, C, A, A, B, A, C, B, A]);
    run(snap, 990);
    const state = snap.routes[0].state.received;
    expect(state[A] + state[B] + state[C]).toBe(1000);
    expect(Math.abs(state[A] - 500)).toBeLessThanOrEqual(1);
    expect(Math.abs(state[B] - 300)).toBeLessThanOrEqual(1);
    expect(Math.abs(state[C] - 200)).toBeLessThanOrEqual(1);
    // after every prefix too, nobody drifts more than one lead from exact
    const fresh = snapshot([route('w', { strategy: 'weighted', weights: { [A]: 33, [B]: 33, [C]: 34 } })]);
    for (let n = 1; n <= 1000; n++) {
      run(fresh, 1);
      const got = fresh.routes[0].state.received;
      for (const [userId, weight] of Object.entries({ [A]: 33, [B]: 33, [C]: 34 })) {
        expect(Math.abs((got[userId] ?? 0) - (weight * n) / 100)).toBeLessThanOrEqual(1);
      }
    }
  });

  it('smart: fewest today from any route, then fewest open, then longest since last, then pool order', () => {
    const snap = snapshot([route('s', { strategy: 'smart' as RouteStrategy, pool: [A, B, C, D] })], {
      receivedToday: { [A]: 2, [B]: 1, [C]: 1, [D]: 1 },
      openLeads: { [B]: 5, [C]: 3, [D]: 3 },
      lastAssignedAt: { [C]: '2026-03-10T09:00:00Z', [D]: '2026-03-10T08:00:00Z' },
    });
    expect(decide(snap, facts(), NOW).userId).toBe(D);
    snap.lastAssignedAt[D] = '2026-03-10T09:00:00Z';
    expect(decide(snap, facts(), NOW).userId).toBe(C); // full tie → pool order
    delete snap.lastAssignedAt[D];
    expect(decide(snap, facts(), NOW).userId).toBe(D); // never assigned = longest
    snap.openLeads[B] = 0;
    expect(decide(snap, facts(), NOW).userId).toBe(B);
    snap.receivedToday[A] = 0;
    expect(decide(snap, facts(), NOW).userId).toBe(A);
    expect(decide(snap, facts(), NOW).why).toContain('had the fewest leads today');
  });
});

describe('decide: steps and fall-through', () => {
  it('walks routes by position: paused, no_match, closed, nobody_available, then assigned', () => {
    const snap = snapshot(
      [
        route('paused', { paused: true }),
        route('french', { conditions: group('language', 'has_any_of', { kind: 'strings', values: ['FR'] }) }),
        route('weekend', { schedule: { zone: 'UTC', days: [{ day: 6, from: '00:00', to: '24:00' }] } }),
        route('gone', {
          pool: [A, B, C],
          dailyCap: 1,
          state: { lastAssigneeId: null, received: {}, today: { day: '2026-03-10', counts: { [C]: 1 } } },
        }),
        route('last', { name: null, pool: [D] }),
      ],
      { activeUserIds: [B, C, D], awayUntil: { [B]: '2026-04-01' } },
    );
    const decision = decide(snap, facts(), NOW);
    expect(decision.steps).toEqual([
      { ruleId: 'paused', outcome: 'paused', skipped: [] },
      { ruleId: 'french', outcome: 'no_match', skipped: [] },
      { ruleId: 'weekend', outcome: 'closed', skipped: [] },
      {
        ruleId: 'gone',
        outcome: 'nobody_available',
        skipped: [
          { userId: A, reason: 'not_member' },
          { userId: B, reason: 'away' },
          { userId: C, reason: 'daily_cap' },
        ],
      },
      { ruleId: 'last', outcome: 'assigned', skipped: [] },
    ]);
    expect(decision.userId).toBe(D);
    expect(decision.why).toBe(
      `Route #5 assigned ${D} after "paused" paused, "french" did not match, "weekend" closed, "gone" had nobody available: it takes every lead and ${D} was next in round robin.`,
    );
    // a lead in French matches the second route; a past away time means back
    snap.awayUntil[B] = '2026-03-10T11:59:59Z';
    expect(decide(snap, facts({ language: 'fr' }), NOW)).toMatchObject({ ruleId: 'french', userId: B });
  });

  it('falls through to Smart routing (ruleId null) and to Unassigned', () => {
    const routes = [route('r', { paused: true })];
    const off = decide(snapshot(routes), facts(), NOW);
    expect(off).toMatchObject({ userId: null, ruleId: null, strategy: null, smartRouting: false });
    expect(off.steps.at(-1)).toEqual({ ruleId: null, outcome: 'unassigned', skipped: [] });
    expect(off.why).toBe(
      'The lead stays unassigned because no route took the lead ("r" paused) and Smart routing is off.',
    );

    const smart = snapshot(routes, {
      smartRouting: { enabled: true, team: [A, B, C] },
      receivedToday: { [A]: 1 },
      awayUntil: { [C]: '2027-01-01T00:00:00Z' },
    });
    const on = decide(smart, facts(), NOW);
    expect(on).toMatchObject({ userId: B, ruleId: null, strategy: 'smart', smartRouting: true });
    expect(on.steps).toEqual([
      { ruleId: 'r', outcome: 'paused', skipped: [] },
      { ruleId: null, outcome: 'smart_routing', skipped: [{ userId: C, reason: 'away' }] },
    ]);
    expect(on.why).toContain('Smart routing assigned');

    smart.activeUserIds = [C];
    const nobody = decide(smart, facts(), NOW);
    expect(nobody.userId).toBeNull();
    expect(nobody.steps.at(-1)).toEqual({
      ruleId: null,
      outcome: 'unassigned',
      skipped: [
        { userId: A, reason: 'not_member' },
        { userId: B, reason: 'not_member' },
        { userId: C, reason: 'away' },
      ],
    });
  });

  it('dailyCap is per person per route per day, the day in the schedule zone', () => {
    const snap = snapshot([route('cap', { pool: [A, B], dailyCap: 2 }), route('rest', { pool: [E] })]);
    expect(run(snap, 6)).toEqual([A, B, A, B, E, E]);
    // a new UTC day resets the route's counts
    const next = new Date('2026-03-11T00:00:00Z');
    expect(decide(snap, facts(), next).userId).toBe(A);

    // with a New York schedule, 2026-11-02T04:30Z is still 1 November there
    const ny = snapshot([
      route('ny', {
        pool: [A],
        dailyCap: 1,
        schedule: {
          zone: 'America/New_York',
          days: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, from: '00:00', to: '24:00' })),
        },
        state: { lastAssigneeId: A, received: {}, today: { day: '2026-11-01', counts: { [A]: 1 } } },
      }),
    ]);
    expect(decide(ny, facts(), new Date('2026-11-02T04:30:00Z')).steps[0]).toEqual({
      ruleId: 'ny',
      outcome: 'nobody_available',
      skipped: [{ userId: A, reason: 'daily_cap' }],
    });
    expect(decide(ny, facts(), new Date('2026-11-02T05:00:00Z')).userId).toBe(A);
  });

  it('schedules in America/New_York hold local hours across the 2026-11-01 DST change', () => {
    const hours = [6, 7].map((day) => ({ day, from: '09:00', to: '17:00' }));
    const snap = snapshot([route('ny', { pool: [A], schedule: { zone: 'America/New_York', days: hours } })]);
    const outcome = (iso: string) => decide(snap, facts(), new Date(iso)).steps[0].outcome;
    // Saturday 31 October, EDT (UTC-4)
    expect(outcome('2026-10-31T12:59:00Z')).toBe('closed');
    expect(outcome('2026-10-31T13:00:00Z')).toBe('assigned');
    expect(outcome('2026-10-31T20:59:00Z')).toBe('assigned');
    expect(outcome('2026-10-31T21:00:00Z')).toBe('closed');
    // Sunday 1 November, EST (UTC-5) after 02:00
    expect(outcome('2026-11-01T13:30:00Z')).toBe('closed');
    expect(outcome('2026-11-01T14:00:00Z')).toBe('assigned');
    expect(outcome('2026-11-01T21:59:00Z')).toBe('assigned');
    expect(outcome('2026-11-01T22:00:00Z')).toBe('closed');
    // Monday is not in the schedule
    expect(outcome('2026-11-02T15:00:00Z')).toBe('closed');
  });

  it('evaluates conditions over the facts in JS: any/all/none, presence, booleans, arrival, or-groups', () => {
    const T1 = '00000000-0000-4000-8000-0000000000f1';
    const T2 = '00000000-0000-4000-8000-0000000000f2';
    const takes = (conditions: FactGroup, over: Partial<RoutingFacts>) =>
      decide(snapshot([route('c', { conditions })]), facts(over), NOW).steps[0].outcome === 'assigned';
    const tags = (operator: string) => group('tagIds', operator, { kind: 'strings', values: [T1, T2] });
    expect(takes(tags('has_any_of'), { tagIds: [T2] })).toBe(true);
    expect(takes(tags('has_all_of'), { tagIds: [T2] })).toBe(false);
    expect(takes(tags('has_all_of'), { tagIds: [T1, T2] })).toBe(true);
    expect(takes(tags('has_none_of'), { tagIds: [T1] })).toBe(false);
    expect(takes(group('growthAreaId', 'is_missing', { kind: 'empty' }), {})).toBe(true);
    expect(takes(group('country', 'has_none_of', { kind: 'strings', values: ['es'] }), {})).toBe(false);
    expect(takes(group('hasEmail', 'is_true', { kind: 'empty' }), {})).toBe(false);
    expect(takes(group('hasPhone', 'is_true', { kind: 'empty' }), {})).toBe(true);
    expect(takes(group('arrivedAt', 'is_before', { kind: 'date', value: '2026-03-10T12:00:01Z' }), {})).toBe(
      true,
    );
    expect(takes(group('arrivedAt', 'is_after', { kind: 'date', value: '2026-03-10' }), {})).toBe(true);
    const either: FactGroup = {
      type: 'group',
      combinator: 'or',
      children: [
        ...group('hasEmail', 'is_true', { kind: 'empty' }).children,
        ...group('source', 'has_any_of', { kind: 'strings', values: ['Idealista'] }).children,
      ],
    };
    expect(takes(either, {})).toBe(true);
    expect(takes(either, { source: null })).toBe(false);
  });
});

describe('decide: the README worked example', () => {
  it('gives the steps and the why the README shows', () => {
    const snap = snapshot(
      [
        route('french', {
          name: 'French desk',
          conditions: group('language', 'has_any_of', { kind: 'strings', values: ['fr'] }),
        }),
        route('weekend', {
          name: 'Weekend',
          schedule: { zone: 'Europe/Madrid', days: [{ day: 6, from: '09:00', to: '18:00' }] },
        }),
        route('phone', {
          name: 'Phone leads',
          conditions: group('hasPhone', 'is_true', { kind: 'empty' }),
          dailyCap: 20,
          state: { lastAssigneeId: A, received: {}, today: null },
        }),
      ],
      { awayUntil: { [B]: '2026-03-11T00:00:00Z' }, names: { [A]: 'Ana', [B]: 'Ben', [C]: 'Cleo' } },
    );
    const decision = decide(snap, facts({ language: 'es', hasPhone: true }), NOW);
    expect(decision.steps).toEqual([
      { ruleId: 'french', outcome: 'no_match', skipped: [] },
      { ruleId: 'weekend', outcome: 'closed', skipped: [] },
      { ruleId: 'phone', outcome: 'assigned', skipped: [{ userId: B, reason: 'away' }] },
    ]);
    expect(decision.userId).toBe(C);
    expect(decision.why).toBe(
      'Route "Phone leads" assigned Cleo after "French desk" did not match, "Weekend" closed: the lead matched its conditions and Cleo was next in round robin.',
    );
  });
});
