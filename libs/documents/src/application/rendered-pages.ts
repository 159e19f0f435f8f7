/**
 * The public page's rendered HTML, kept per document version (`id` + `updatedAt`: every edit or
 * share change moves `updatedAt`, so a changed document is never served stale). Rendering a
 * 1,000,000-character body takes most of a second of CPU; a link passed around is read many times.
 * Bounded by entries and by characters held; least recently used first out. One per process.
 */
export class RenderedPages {
  private readonly pages = new Map<string, string>();
  private held = 0;

  constructor(
    private readonly maxEntries = 200,
    private readonly maxChars = 32_000_000,
  ) {}

  static key(document: { id: string; updatedAt: Date }): string {
    return `${document.id}:${document.updatedAt.getTime()}`;
  }

  get(key: string): string | undefined {
    const html = this.pages.get(key);
    if (html === undefined) return undefined;
    // most recently used last
    this.pages.delete(key);
    this.pages.set(key, html);
    return html;
  }

  set(key: string, html: string): void {
    if (html.length > this.maxChars) return;
    const old = this.pages.get(key);
    if (old !== undefined) {
      this.pages.delete(key);
      this.held -= old.length;
    }
    this.pages.set(key, html);
    this.held += html.length;
    for (const [oldest, page] of this.pages) {
      if (this.pages.size <= this.maxEntries && this.held <= this.maxChars) break;
      this.pages.delete(oldest);
      this.held -= page.length;
    }
  }

  get size(): number {
    return this.pages.size;
  }
}
