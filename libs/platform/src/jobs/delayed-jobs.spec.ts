import { delayUntil, queueJobId } from './delayed-jobs';

describe('delayUntil', () => {
  const now = new Date('2026-03-01T10:00:00.000Z');

  it('is the milliseconds until runAt', () => {
    expect(delayUntil(new Date('2026-03-01T10:00:00.300Z'), now)).toBe(300);
    expect(delayUntil(new Date('2026-03-01T11:00:00.000Z'), now)).toBe(3_600_000);
  });

  it('is 0 for a time now or already passed', () => {
    expect(delayUntil(now, now)).toBe(0);
    expect(delayUntil(new Date('2026-03-01T09:59:59.000Z'), now)).toBe(0);
  });
});

describe('queueJobId', () => {
  it('escapes the colon BullMQ refuses in a custom id', () => {
    expect(queueJobId('reassign:0b6f6c1e-2f5a-4c1e-9c3e-1f2a3b4c5d6e')).toBe(
      'reassign%3A0b6f6c1e-2f5a-4c1e-9c3e-1f2a3b4c5d6e',
    );
    expect(queueJobId('a:b:c')).not.toContain(':');
  });

  it('keeps an id without colon or percent as it is', () => {
    expect(queueJobId('reassign-42')).toBe('reassign-42');
  });

  it('never maps two ids to one', () => {
    const ids = ['a:b', 'a%3Ab', 'a%b', 'a%25b', '12', '#12', '%', ':', '1:2'];
    expect(new Set(ids.map(queueJobId)).size).toBe(ids.length);
  });

  it('never gives an integer id (BullMQ refuses them: its own ids are integers)', () => {
    expect(queueJobId('12')).toBe('#12');
    expect(`${parseInt(queueJobId('0012'), 10)}`).not.toBe(queueJobId('0012'));
  });
});
