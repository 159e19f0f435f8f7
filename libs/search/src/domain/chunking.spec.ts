import { chunkText } from './chunking';

const sentence = (i: number) => `Sentence number ${i} talks about a villa with a garden near the sea. `;

describe('chunkText', () => {
  it('keeps a text of up to 2,000 characters whole', () => {
    const text = 'x'.repeat(2000);
    expect(chunkText(text)).toEqual([text]);
    expect(chunkText('  ')).toEqual([]);
  });

  it('splits a longer text at sentence ends, each passage at most 2,000 characters, overlapping by about 200', () => {
    const text = Array.from({ length: 100 }, (_, i) => sentence(i)).join('');
    const chunks = chunkText(text);
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(2000);
      expect(chunk.startsWith('Sentence number')).toBe(true);
      expect(chunk.endsWith('sea.')).toBe(true);
    }
    for (let i = 1; i < chunks.length; i++) {
      const previous = chunks[i - 1];
      const overlap = previous.slice(previous.length - 150);
      expect(chunks[i]).toContain(overlap.slice(overlap.indexOf('Sentence')));
    }
    // nothing lost
    for (let i = 0; i < 100; i++) expect(chunks.some((c) => c.includes(`number ${i} `))).toBe(true);
  });

  it('cuts at a space when a sentence is longer than a passage, and hard when there is none', () => {
    const words = Array.from({ length: 600 }, (_, i) => `word${i}`).join(' ');
    const chunks = chunkText(words);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(2000);
    expect(chunks.at(-1)).toContain('word599');
    const solid = 'y'.repeat(4500);
    expect(chunkText(solid).every((c) => c.length <= 2000)).toBe(true);
    expect(chunkText(solid).join('').length).toBeGreaterThanOrEqual(4500);
  });
});
