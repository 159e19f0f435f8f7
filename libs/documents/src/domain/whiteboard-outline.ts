import type { WhiteboardElement } from './document.entity';

/** Spec: a whiteboard's scene holds at most 5,000 elements. */
export const WHITEBOARD_MAX_ELEMENTS = 5_000;

/**
 * A whiteboard's plain-text outline (its body): the texts of its elements, top to bottom (`y`),
 * then left to right (`x`), ties in scene order; one `- ` line each. An element without text, or
 * only white space, adds no line; line breaks inside a text become spaces, so a text is one line.
 */
export function whiteboardOutline(elements: readonly WhiteboardElement[]): string {
  return elements
    .map((element, index) => ({ element, index, text: (element.text ?? '').replace(/\s+/g, ' ').trim() }))
    .filter(({ text }) => text.length > 0)
    .sort((a, b) => a.element.y - b.element.y || a.element.x - b.element.x || a.index - b.index)
    .map(({ text }) => `- ${text}`)
    .join('\n');
}
