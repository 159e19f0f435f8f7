import { describeRoute, listWords, scheduleWords, type DescribedRoute } from './route-summary';
import type { FactCondition, FactGroup } from './routing-facts';

const ana = { userId: 'a', name: 'Ana' };
const luis = { userId: 'l', name: 'Luis' };
const strings = (field: FactCondition['field'], operator: FactCondition['operator'], ...values: string[]) =>
  ({ type: 'condition', field, operator, value: { kind: 'strings', values } }) as FactCondition;
const empty = (field: FactCondition['field'], operator: FactCondition['operator']) =>
  ({ type: 'condition', field, operator, value: { kind: 'empty' } }) as FactCondition;
const all = (...children: FactGroup['children']): FactGroup => ({
  type: 'group',
  combinator: 'and',
  children,
});
const either = (...children: FactGroup['children']): FactGroup => ({
  type: 'group',
  combinator: 'or',
  children,
});

const route = (over: Partial<DescribedRoute> = {}): DescribedRoute => ({
  conditions: null,
  strategy: 'round_robin',
  paused: false,
  members: [ana, luis],
  weights: null,
  schedule: null,
  dailyCap: null,
  reassignAfterMinutes: null,
  ...over,
});

describe('describeRoute', () => {
  it('writes the example sentence of the brief', () => {
    expect(
      describeRoute(
        route({
          conditions: all(
            strings('source', 'has_any_of', 'idealista'),
            strings('language', 'has_any_of', 'es'),
          ),
          schedule: {
            zone: 'Europe/Madrid',
            days: [1, 2, 3, 4, 5].map((day) => ({ day, from: '09:00', to: '18:00' })),
          },
          dailyCap: 20,
        }),
      ),
    ).toBe(
      'Leads from idealista in Spanish go to Ana and Luis in turn, Monday-Friday 09:00-18:00 (Europe/Madrid), at most 20 a day each.',
    );
  });

  it('says every lead for null or empty conditions', () => {
    expect(describeRoute(route())).toBe('Every lead goes to Ana and Luis in turn.');
    expect(describeRoute(route({ conditions: all() }))).toMatch(/^Every lead /);
  });

  it('names each strategy', () => {
    expect(describeRoute(route({ strategy: 'weighted', weights: { a: 70, l: 30 } }))).toBe(
      'Every lead goes to Ana (70%) and Luis (30%) by weight.',
    );
    expect(describeRoute(route({ strategy: 'smart' }))).toBe(
      'Every lead goes to whoever of Ana and Luis has had the fewest leads today.',
    );
    expect(describeRoute(route({ members: [ana], dailyCap: 5 }))).toBe(
      'Every lead goes to Ana, at most 5 a day.',
    );
  });

  it('says when the pool is empty, paused, and the reassignment time', () => {
    expect(describeRoute(route({ members: [], paused: true, reassignAfterMinutes: 90 }))).toBe(
      'Paused: Every lead goes to nobody yet (no one active is in the pool), passed to the next person when untouched after 90 minutes.',
    );
    expect(describeRoute(route({ reassignAfterMinutes: 120 }))).toContain('after 2 hours');
    expect(describeRoute(route({ reassignAfterMinutes: 2880 }))).toContain('after 2 days');
  });

  it('names four people, then counts the others', () => {
    const many = ['Ana', 'Bea', 'Cris', 'Dani', 'Eva', 'Fede'].map((name) => ({ userId: name, name }));
    expect(describeRoute(route({ members: many }))).toBe(
      'Every lead goes to Ana, Bea, Cris, Dani and 2 others in turn.',
    );
  });

  it('reads every fact and operator, nested groups in parentheses', () => {
    const sentence = describeRoute(
      route({
        conditions: all(
          either(
            strings('source', 'has_any_of', 'idealista', 'fotocasa'),
            strings('country', 'has_any_of', 'es'),
          ),
          strings('language', 'has_none_of', 'en', 'xx'),
          strings('leadType', 'has_any_of', 'buyer'),
          strings('origin', 'has_none_of', 'portal:idealista'),
          strings('tagIds', 'has_all_of', 't1', 't2'),
          strings('growthAreaId', 'has_any_of', 'g1'),
          empty('hasPhone', 'is_true'),
          empty('hasEmail', 'is_false'),
          empty('source', 'is_missing'),
          {
            type: 'condition',
            field: 'arrivedAt',
            operator: 'is_after',
            value: { kind: 'date', value: '2026-01-01' },
          },
        ),
      }),
    );
    expect(sentence).toBe(
      'Leads (from idealista or fotocasa or from country ES) not in English or xx of type buyer not with origin ' +
        'portal:idealista with all of 2 chosen tags in a chosen growth area with a phone number without an email ' +
        'without a source arriving after 2026-01-01 go to Ana and Luis in turn.',
    );
  });
});

describe('scheduleWords', () => {
  it('groups days with the same hours and joins runs', () => {
    expect(
      scheduleWords({
        zone: 'UTC',
        days: [
          { day: 6, from: '10:00', to: '14:00' },
          { day: 1, from: '09:00', to: '18:00' },
          { day: 2, from: '09:00', to: '18:00' },
          { day: 4, from: '09:00', to: '18:00' },
          { day: 7, from: '10:00', to: '14:00' },
        ],
      }),
    ).toBe('Monday, Tuesday and Thursday 09:00-18:00 and Saturday and Sunday 10:00-14:00 (UTC)');
  });
  it('says never for no open time', () => {
    expect(scheduleWords({ zone: 'UTC', days: [] })).toBe('never (the schedule has no open time)');
  });
});

describe('listWords', () => {
  it('joins with commas and the last word', () => {
    expect(listWords([], 'and')).toBe('');
    expect(listWords(['a'], 'and')).toBe('a');
    expect(listWords(['a', 'b', 'c'], 'or')).toBe('a, b or c');
  });
});
