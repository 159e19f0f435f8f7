import { documentOfRow } from './search-documents';
import { orphanChunksStatement, searchSourcePageStatement } from './search-documents.sql';

const ORG = '0190a0a0-0000-7000-8000-000000000001';
const ID = '0190a0a0-0000-7000-8000-0000000000aa';
const AT = '2026-11-20T10:00:00.000Z';

describe('search documents of stored rows (search:reindex)', () => {
  it('a note dates from occurredAt, else its creation; the lead gives the language', () => {
    const base = { id: ID, lead_id: '42', content: 'Wants a garden', created_at: new Date(AT) };
    expect(documentOfRow(ORG, 'note', { ...base, occurred_at: null })).toEqual({
      organizationId: ORG,
      leadId: 42,
      kind: 'note',
      sourceId: ID,
      occurredAt: new Date(AT),
      text: 'Wants a garden',
      untrusted: false,
      language: null,
    });
    expect(
      documentOfRow(ORG, 'note', { ...base, occurred_at: '2026-01-02T00:00:00Z' }).occurredAt.toISOString(),
    ).toBe('2026-01-02T00:00:00.000Z');
  });

  it('tasks, messages and emails read as the writes index them', () => {
    expect(
      documentOfRow(ORG, 'task', {
        id: ID,
        lead_id: 1,
        title: 'Call',
        description: 'garden',
        created_at: AT,
      }),
    ).toMatchObject({ kind: 'task', text: 'Call\ngarden', untrusted: false, occurredAt: new Date(AT) });
    expect(
      documentOfRow(ORG, 'message', { id: ID, lead_id: 1, body: 'Hola', direction: 'inbound', at: AT }),
    ).toMatchObject({ kind: 'message', text: 'Hola', untrusted: true });
    expect(
      documentOfRow(ORG, 'email', {
        id: ID,
        lead_id: 1,
        subject: 'Flat',
        body_text: 'Still free?',
        source: 'captured',
        capture_direction: 'outbound',
        message_at: AT,
      }),
    ).toMatchObject({ kind: 'email', text: 'Flat\n\nStill free?', untrusted: false });
  });

  it("a call's transcript keeps its detected language; its analysis is one text; both date from the call", () => {
    const call = { id: ID, lead_id: 7, started_at: new Date(AT) };
    expect(
      documentOfRow(ORG, 'transcript', { ...call, transcript: 'Hola, busco piso', detected_language: 'es' }),
    ).toMatchObject({
      kind: 'transcript',
      sourceId: ID,
      language: 'es',
      untrusted: true,
      occurredAt: new Date(AT),
    });
    expect(
      documentOfRow(ORG, 'analysis', {
        ...call,
        analysis: {
          summary: 'Wants a flat.',
          sentiment: { overall: 'positive', score: 1 },
          objections: [{ topic: 'price', quote: null, handled: true }],
          nextSteps: [{ text: 'Send plans', owner: 'agent', dueAt: null }],
          coachingTips: [{ tip: 'Listen more', category: null }],
        },
      }),
    ).toMatchObject({
      kind: 'analysis',
      text: 'Wants a flat.\nprice\nSend plans\nListen more',
      untrusted: false,
      language: null,
    });
  });

  it('pages by id within the organization; transcripts and analyses only of calls that have one', () => {
    const first = searchSourcePageStatement(ORG, 'transcript', null);
    expect(first.sql).toMatch(
      /from calls r\s+where r.organization_id = \? and r.id > \?::uuid and r.transcript is not null/,
    );
    expect(first.params).toEqual([ORG, '00000000-0000-0000-0000-000000000000', 500]);
    expect(searchSourcePageStatement(ORG, 'email', ID, 10).params).toEqual([ORG, ID, 10]);
    expect(orphanChunksStatement(ORG, 'analysis').sql).toContain('r.analysis is not null');
  });
});
