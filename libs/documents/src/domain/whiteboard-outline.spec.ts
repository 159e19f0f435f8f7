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
