import { fuzzySnippetOf, snippetOf } from './snippet';

describe('snippetOf', () => {
  it('keeps a whole short text as it is', () => {
    expect(snippetOf('Wants a villa with a garden.', 'Wants a villa with a garden')).toBe(
      'Wants a villa with a garden',
    );
  });

  it('marks cuts at either end with …', () => {
    const text = 'One two three. The buyer wants a garden in Marbella. Then more words follow here.';
    expect(snippetOf(text, 'The buyer wants a garden in Marbella')).toBe(
      '…The buyer wants a garden in Marbella…',
    );
    expect(snippetOf(text, 'One two three. The buyer')).toBe('One two three. The buyer…');
  });

  it('never gives more than 30 words', () => {
    const text = Array.from({ length: 80 }, (_, i) => `w${i}`).join(' ');
    const snippet = snippetOf(text, text);
    expect(snippet.replace('…', '').split(' ')).toHaveLength(30);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet.startsWith('…')).toBe(false);
  });
});

describe('fuzzySnippetOf', () => {
  it('shows the words around the one most like the query word', () => {
    const text = `${Array.from({ length: 50 }, (_, i) => `w${i}`).join(' ')} Looking in Marbella near the old town. ${Array.from({ length: 50 }, (_, i) => `v${i}`).join(' ')}`;
    const snippet = fuzzySnippetOf(text, ['marbela']);
    expect(snippet).toContain('Marbella');
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet.replace(/…/g, '').split(' ')).toHaveLength(30);
  });

  it('keeps a short text whole', () => {
    expect(fuzzySnippetOf('Looking in Marbella.', ['marbela'])).toBe('Looking in Marbella.');
  });
});
