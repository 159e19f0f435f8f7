import { Document } from './document.entity';
import { whiteboardOutline } from './whiteboard-outline';

describe('whiteboardOutline', () => {
  it('orders texts by y, then x, then scene order; one "- " line each', () => {
    expect(
      whiteboardOutline([
        { type: 'text', text: 'third', x: 50, y: 20 },
        { type: 'text', text: 'first', x: 100, y: -5 },
        { type: 'sticky', text: 'second', x: 10, y: 20 },
        { type: 'text', text: 'fourth (tie, later in the scene)', x: 50, y: 20 },
        { type: 'text', text: 'last', x: 0, y: 300.5 },
      ]),
    ).toBe('- first\n- second\n- third\n- fourth (tie, later in the scene)\n- last');
  });

  it('skips elements without text and keeps each text on one line', () => {
    expect(
      whiteboardOutline([
        { type: 'arrow', x: 0, y: 0 },
        { type: 'text', text: '   ', x: 0, y: 1 },
        { type: 'text', text: ' two\nlines ', x: 0, y: 2 },
      ]),
    ).toBe('- two lines');
    expect(whiteboardOutline([])).toBe('');
  });
});

describe('a whiteboard body is read-only', () => {
  const whiteboard = () =>
    new Document({
      organizationId: 'org',
      createdBy: 'user',
      title: 'Plan',
      kind: 'whiteboard',
      body: whiteboardOutline([{ type: 'text', text: 'Hall', x: 0, y: 0 }]),
      now: new Date('2026-11-24T10:00:00Z'),
    });

  it('a body edit → DOCUMENT_KIND_READ_ONLY; the title may change', () => {
    const document = whiteboard();
    expect(() => document.edit({ body: '# mine' }, new Date())).toThrow(
      expect.objectContaining({ code: 'DOCUMENT_KIND_READ_ONLY' }),
    );
    expect(document.body).toBe('- Hall');
    document.edit({ title: 'Ground floor' }, new Date('2026-11-24T11:00:00Z'));
    expect(document.title).toBe('Ground floor');
  });
});
