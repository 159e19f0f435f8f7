import { changeOf, leadEventParts, taskEventParts } from './crm-events';

describe('CRM events: how a change is told', () => {
  it('changeOf: the fields that differ, with their old values; null when none', () => {
    expect(changeOf({ a: 1, b: ['x'], c: null }, { a: 1, b: ['x', 'y'], c: 'z' })).toEqual({
      changedFields: ['b', 'c'],
      previous: { b: ['x'], c: null },
    });
    expect(changeOf({ a: 1, b: ['x'] }, { a: 1, b: ['x'] })).toBeNull();
  });

  it('a lead: status and owners by their own events, the other fields as one lead.updated', () => {
    const change = changeOf(
      { firstName: 'A', crmStatus: 'lead', assigneeIds: [] },
      { firstName: 'B', crmStatus: 'client', assigneeIds: ['u'] },
    );
    expect(leadEventParts(change)).toEqual([
      {
        type: 'lead.status_changed',
        change: { changedFields: ['crmStatus'], previous: { crmStatus: 'lead' } },
      },
      { type: 'lead.assigned', change: { changedFields: ['assigneeIds'], previous: { assigneeIds: [] } } },
      { type: 'lead.updated', change: { changedFields: ['firstName'], previous: { firstName: 'A' } } },
    ]);
    expect(leadEventParts(changeOf({ assigneeIds: [] }, { assigneeIds: ['u'] }), 'lead.routed')).toEqual([
      { type: 'lead.routed', change: { changedFields: ['assigneeIds'], previous: { assigneeIds: [] } } },
    ]);
    expect(leadEventParts(null)).toEqual([]);
  });

  it('a task: completing is task.completed, the rest (reopening too) task.updated', () => {
    const before = { title: 'a', status: 'pending', completedAt: null };
    const done = { title: 'b', status: 'completed', completedAt: '2026-01-01T00:00:00.000Z' };
    expect(taskEventParts(changeOf(before, done), done).map((part) => part.type)).toEqual([
      'task.completed',
      'task.updated',
    ]);
    const reopened = { title: 'b', status: 'pending', completedAt: null };
    expect(taskEventParts(changeOf(done, reopened), reopened)).toEqual([
      {
        type: 'task.updated',
        change: {
          changedFields: ['status', 'completedAt'],
          previous: { status: 'completed', completedAt: '2026-01-01T00:00:00.000Z' },
        },
      },
    ]);
  });
});
