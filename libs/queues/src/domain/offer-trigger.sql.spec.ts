import { offerSentence, offerTriggerStatement, type TriggerQueue } from './offer-trigger.sql';
import type { FilterGroup } from './queue-grammar';

const NOW = new Date('2026-11-20T15:30:00Z');
const ORG = '0190a1b2-0000-7000-8000-0000000000a0';
const CREATOR = '0190a1b2-0000-7000-8000-0000000000aa';
const TAG = '0190a1b2-0000-7000-8000-0000000000bb';
const HOSTILE = `x'); drop table leads; --`;
const every: FilterGroup = { type: 'group', combinator: 'and', children: [] };
const mine: FilterGroup = {
  type: 'group',
  combinator: 'and',
  children: [
    {
      type: 'condition',
      field: 'assignee',
      operator: 'has_any_of',
      value: { kind: 'strings', values: ['$me'] },
    },
  ],
};
const names = { tags: new Map([[TAG, 'Hot']]), people: new Map([[CREATOR, 'Ana Ruiz']]) };

const queue = (overrides: Partial<TriggerQueue> = {}): TriggerQueue => ({
  id: '0190a1b2-0000-7000-8000-000000000001',
  createdBy: CREATOR,
  creatorIsAdmin: false,
  definition: {
    root: mine,
    calling: { pool: 'owners', coolDownMinutes: 120, people: null },
    rules: [
      { id: 'r1', when: 'call_ended', if: every, offer: { kind: 'set_status', status: 'potential' } },
      {
        id: 'r2',
        when: 'call_ended',
        if: {
          type: 'group',
          combinator: 'and',
          children: [
            {
              type: 'condition',
              field: 'notesContain',
              operator: 'contains',
              value: { kind: 'string', value: HOSTILE },
            },
          ],
        },
        offer: { kind: 'add_tag', tagId: TAG },
      },
      { id: 'r3', when: 'time_passed', if: every, offer: { kind: 'follow_up', inDays: 1 } },
    ],
  },
  ...overrides,
});

const input = (queues: TriggerQueue[], leadId: number | null = 42) => ({
  organizationId: ORG,
  leadId,
  when: 'call_ended' as const,
  now: NOW,
  queues,
  sentence: (offer: Parameters<typeof offerSentence>[0]) => offerSentence(offer, names),
});

describe('offerTriggerStatement', () => {
  it('is one insert over every rule of that `when` of every queue, values bound, never interpolated', () => {
    const statement = offerTriggerStatement(
      input([queue(), queue({ id: '0190a1b2-0000-7000-8000-000000000002' })]),
    )!;
    expect(statement.sql.match(/insert into offers/g)).toHaveLength(1);
    expect(statement.sql).toContain('on conflict do nothing');
    // two queues × two call_ended rules; the time_passed rule is left out
    expect(statement.sql.match(/\(\?::uuid, \?::text, \?::jsonb, \?::text,/g)).toHaveLength(4);
    expect(statement.sql).not.toContain(HOSTILE);
    expect(statement.sql).not.toContain(CREATOR);
    expect(statement.sql.split('?').length - 1).toBe(statement.params.length);
    // `$me` is the creator, the member creator's reach is their own leads, the lead is the last value
    expect(statement.params.filter((param) => param === `{"${CREATOR}"}`).length).toBeGreaterThan(0);
    expect(statement.sql).toContain('l.assignee_ids @> array[?]::uuid[]');
    expect(statement.params.at(-1)).toBe(42);
  });

  it('covers every lead of the organization for time_passed; an admin or team queue has no reach filter', () => {
    const statement = offerTriggerStatement({
      ...input([queue({ creatorIsAdmin: true })], null),
      when: 'time_passed',
    })!;
    expect(statement.sql).not.toContain('l.id = ?');
    expect(statement.sql).not.toContain('l.assignee_ids @> array[?]::uuid[]');
    expect(statement.params.at(-1)).toBe(ORG);
  });

  it('is null when no queue has a rule of that `when`', () => {
    expect(offerTriggerStatement({ ...input([queue()]), when: 'task_completed' })).toBeNull();
    expect(offerTriggerStatement(input([]))).toBeNull();
  });
});

describe('offerSentence', () => {
  it('says each kind of offer as a sentence', () => {
    expect(offerSentence({ kind: 'set_status', status: 'bad_timing' }, names)).toBe(
      'Set status to bad timing',
    );
    expect(offerSentence({ kind: 'add_tag', tagId: TAG }, names)).toBe('Add the tag "Hot"');
    expect(offerSentence({ kind: 'remove_tag', tagId: TAG }, names)).toBe('Remove the tag "Hot"');
    expect(offerSentence({ kind: 'assign', userId: CREATOR }, names)).toBe('Assign to Ana Ruiz');
    expect(offerSentence({ kind: 'follow_up', inDays: 0 }, names)).toBe('Call back today');
    expect(offerSentence({ kind: 'follow_up', inDays: 1 }, names)).toBe('Call back in 1 day');
    expect(offerSentence({ kind: 'follow_up', inDays: 7 }, names)).toBe('Call back in 7 days');
  });
});
