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

describe('Lead from a connector', () => {
  const consent = (capturedAt: string) => ({ contact: true, marketing: false, capturedAt, wording: null });

  it('opens as an unassigned `lead` with its origin and a phone key', () => {
    const made = Lead.fromIntake(
      'org',
      'idealista',
      { email: 'a@x.es', phoneNumber: '612 34 56 78', origin: 'portal:idealista' },
      NOW,
    );
    expect(made).toMatchObject({
      crmStatus: 'lead',
      assigneeIds: [],
      source: 'idealista',
      firstName: '',
      origin: 'portal:idealista',
      phoneKey: '+34612345678',
    });
  });

  it('fills only empty fields; a consent captured later replaces the stored one', () => {
    const made = Lead.fromIntake(
      'org',
      'x',
      { firstName: 'Ana', origin: 'other:x', consent: consent('2026-11-20T00:00:00.000Z') },
      NOW,
    );
    const filled = made.fillFromIntake(
      {
        firstName: 'Anna',
        lastName: 'Ruiz',
        phoneNumber: '+34 600 000 001',
        origin: 'portal:y',
        consent: consent('2026-11-19T00:00:00.000Z'),
      },
      NOW,
    );
    expect(filled).toEqual(['lastName', 'phoneNumber']);
    expect(made).toMatchObject({
      firstName: 'Ana',
      lastName: 'Ruiz',
      origin: 'other:x',
      phoneKey: '+34600000001',
    });
    expect(made.consent?.capturedAt).toBe('2026-11-20T00:00:00.000Z');
    expect(
      made.fillFromIntake({ origin: 'other:x', consent: consent('2026-11-21T00:00:00.000Z') }, NOW),
    ).toEqual(['consent']);
    expect(made.consent?.capturedAt).toBe('2026-11-21T00:00:00.000Z');
  });
});
