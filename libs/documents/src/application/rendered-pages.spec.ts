import { RenderedPages } from './rendered-pages';

describe('RenderedPages', () => {
  it('keys a page by document and version: an edit (a new updatedAt) is a new page', () => {
    const at = new Date('2026-11-24T10:00:00Z');
    expect(RenderedPages.key({ id: 'd1', updatedAt: at })).not.toBe(
      RenderedPages.key({ id: 'd1', updatedAt: new Date(at.getTime() + 1) }),
    );
  });

  it('drops the least recently used page beyond its entry bound', () => {
    const pages = new RenderedPages(2, 1_000);
    pages.set('a', 'A');
    pages.set('b', 'B');
    expect(pages.get('a')).toBe('A'); // a is now the most recent
    pages.set('c', 'C');
    expect(pages.get('b')).toBeUndefined();
    expect(pages.get('a')).toBe('A');
    expect(pages.get('c')).toBe('C');
  });

  it('holds at most its characters, and never a page larger than that', () => {
    const pages = new RenderedPages(10, 10);
    pages.set('a', 'x'.repeat(6));
    pages.set('b', 'y'.repeat(6));
    expect(pages.get('a')).toBeUndefined();
    expect(pages.get('b')).toBe('yyyyyy');
    pages.set('huge', 'z'.repeat(11));
    expect(pages.get('huge')).toBeUndefined();
    expect(pages.size).toBe(1);
  });
});
