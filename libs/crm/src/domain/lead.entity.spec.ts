import { Lead } from './lead.entity';
import { Task } from './task.entity';
import { reachesLead } from './lead-reach';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const lead = () =>
  new Lead(
    {
      organizationId: 'org',
      firstName: 'Ana',
      lastName: 'Ruiz',
      email: 'a@x.es',
      phoneNumber: '+34',
      crmStatus: 'lead',
      assigneeIds: ['u1'],
    },
    NOW,
  );

describe('Lead', () => {
  it('is reached by its assignees and by admins only (lead-reach.ts)', () => {
    const scope = (userId: string, admin: boolean) => ({
      organizationId: lead().organizationId,
      memberId: admin ? null : userId,
    });
    expect(reachesLead(scope('u1', false), lead())).toBe(true);
    expect(reachesLead(scope('u2', false), lead())).toBe(false);
    expect(reachesLead(scope('u2', true), lead())).toBe(true);
  });

  it('clears contact fields with null or ""', () => {
    const l = lead();
    l.changeContact({ email: null, companyName: '', firstName: 'Eva' }, NOW);
    expect({ email: l.email, companyName: l.companyName, firstName: l.firstName }).toEqual({
      email: '',
      companyName: null,
      firstName: 'Eva',
    });
  });

  it('reports who was added and removed when owners change', () => {
    const l = lead();
    expect(l.replaceAssignees(['u2', 'u3'], NOW)).toEqual({ added: ['u2', 'u3'], removed: ['u1'] });
    expect(l.addAssignees(['u3', 'u4'], NOW)).toEqual({ added: ['u4'], removed: [] });
    expect(l.assigneeIds).toEqual(['u2', 'u3', 'u4']);
  });
});

describe('Task', () => {
  const task = () =>
    new Task({ organizationId: 'org', leadId: 1, createdBy: 'u1', title: 'Call', assigneeIds: ['u2'] }, NOW);

  it('is managed by its creator, anyone on it, or an admin', () => {
    expect(task().isManageableBy('u1', false)).toBe(true);
    expect(task().isManageableBy('u2', false)).toBe(true);
    expect(task().isManageableBy('u3', false)).toBe(false);
    expect(task().isManageableBy('u3', true)).toBe(true);
  });

  it('sets completedAt on completion and clears it when reopened', () => {
    const t = task();
    expect(t.setStatus('completed', NOW)).toBe(true);
    expect(t.completedAt).toEqual(NOW);
    expect(t.setStatus('completed', NOW)).toBe(false);
    t.setStatus('pending', NOW);
    expect(t.completedAt).toBeNull();
  });
});
