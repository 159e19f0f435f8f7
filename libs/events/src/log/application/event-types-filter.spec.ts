import { EVENT_KINDS, parseEventTypes } from './event-types-filter';
import { isExpired } from './events.queries';

describe('parseEventTypes', () => {
  it('a catalogued type, or every type of a kind with <kind>.*, in catalogue order, once each', () => {
    expect(parseEventTypes('task.completed, lead.*,lead.created')).toEqual({
      types: [
        'lead.created',
        'lead.updated',
        'lead.status_changed',
        'lead.assigned',
        'lead.routed',
        'lead.inquiry',
        'task.completed',
      ],
      issues: [],
    });
    expect(parseEventTypes('ping').types).toEqual(['ping']);
    expect(parseEventTypes('webhook_endpoint.*').types).toEqual(['webhook_endpoint.disabled']);
  });

  it('anything else is an issue: unknown types and kinds, *, ping.*, empty entries', () => {
    expect(parseEventTypes('lead.nope,nope.*,*,ping.*,').issues).toEqual([
      '"lead.nope"',
      '"nope.*"',
      '"*"',
      '"ping.*"',
      'an empty entry',
    ]);
    expect(parseEventTypes('').issues).toEqual(['an empty entry']);
  });

  it('kinds are those with dotted types', () => {
    expect(EVENT_KINDS).toContain('lead');
    expect(EVENT_KINDS).toContain('webhook_endpoint');
    expect(EVENT_KINDS).not.toContain('ping');
  });
});

describe('isExpired', () => {
  it('only an after below the purge point; 0 never', () => {
    expect(isExpired(0, 10)).toBe(false);
    expect(isExpired(9, 10)).toBe(true);
    expect(isExpired(10, 10)).toBe(false);
    expect(isExpired(11, 10)).toBe(false);
    expect(isExpired(5, 0)).toBe(false);
  });
});
