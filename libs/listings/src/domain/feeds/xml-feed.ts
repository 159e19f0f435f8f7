import { Parser } from 'htmlparser2';
import { FeedParser, FeedParseResult, FeedResultCollector, MalformedFeedError } from './feed-parser';
import type { RawFeedEntry } from './feed-entry';

/** One element of a `<property>`, with its children and its own text. */
export interface XmlNode {
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
  text: string;
}

/** The first child named `name` (case-insensitive), or undefined. */
export const child = (node: XmlNode | undefined, name: string): XmlNode | undefined =>
  node?.children.find((c) => c.name === name);

/** The trimmed text at `path` under `node` (`text(p, 'location', 'latitude')`), or undefined. */
export function text(node: XmlNode | undefined, ...path: string[]): string | undefined {
  let at = node;
  for (const name of path) at = child(at, name);
  const value = at?.text.trim();
  return value ? value : undefined;
}

/** The texts of every `<item>` under `<list>` (`texts(p, 'features', 'feature')`). */
export const texts = (node: XmlNode | undefined, list: string, item: string): string[] =>
  (child(node, list)?.children ?? [])
    .filter((c) => c.name === item)
    .map((c) => c.text.trim())
    .filter((t) => t !== '');

/**
 * A multi-language text (`<desc><en>…</en><es>…</es></desc>`): English first, then the first
 * language with text; a plain `<desc>text</desc>` as is.
 */
export function localized(node: XmlNode | undefined, name: string): string | undefined {
  const element = child(node, name);
  if (!element) return undefined;
  const own = element.text.trim();
  if (own) return own;
  const english = text(element, 'en');
  if (english) return english;
  return element.children.map((c) => c.text.trim()).find((t) => t !== '');
}

/** The image URLs under `<images><image><url>` (or `<image>url</image>`), in `id` order when given. */
export function imageUrls(node: XmlNode | undefined): string[] {
  const images = (child(node, 'images')?.children ?? []).filter((c) => c.name === 'image');
  const ordered = images
    .map((image, index) => ({ image, index, id: Number(image.attributes.id) }))
    .sort((a, b) =>
      Number.isFinite(a.id) && Number.isFinite(b.id) ? a.id - b.id || a.index - b.index : a.index - b.index,
    );
  return ordered.map(({ image }) => text(image, 'url') ?? image.text.trim()).filter((url) => url !== '');
}

/** Text of one entry larger than this is refused (a runaway element, not a listing). */
const MAX_PROPERTY_CHARS = 2_000_000;
const MAX_DEPTH = 32;

/**
 * The streaming reader of Kyero-like XML (`<root><property>…</property>…</root>`): htmlparser2 in
 * XML mode (a DOCTYPE is refused and nothing is fetched or expanded: only the five XML entities
 * and numeric references are decoded; `&other;` stays as written). Each `<property>` is collected as a small tree, mapped by
 * `map` and normalised, then dropped, so memory holds one entry at a time plus the results.
 * The document must be well formed: one `<root>` element, every element closed in order, no text
 * outside it; else `MalformedFeedError` (the import fails and changes nothing).
 */
export function xmlFeedParser(format: string, map: (property: XmlNode) => RawFeedEntry): FeedParser {
  const results = new FeedResultCollector();
  const stack: XmlNode[] = [];
  let rootSeen = false;
  let rootClosed = false;
  let selfClosing = false;
  let explicitCloses = 0;
  let propertyChars = 0;
  let problem: string | null = null;
  const fail = (why: string) => {
    problem ??= why;
  };

  const handler = {
    onprocessinginstruction(name: string) {
      // a DTD could declare entities: refused outright, so none is ever expanded or fetched
      if (name.toLowerCase() === '!doctype') fail('a DOCTYPE is not accepted');
    },
    onopentag(name: string, attributes: Record<string, string>) {
      if (problem) return;
      if (stack.length === 0) {
        if (rootSeen) return fail('more than one root element');
        if (name !== 'root') return fail(`the root element is <${name}>, not <root>`);
        rootSeen = true;
      }
      if (stack.length >= MAX_DEPTH) return fail('elements nested too deeply');
      const node: XmlNode = { name, attributes, children: [], text: '' };
      // only a property's subtree is kept; the root and its other children are not
      if (stack.length >= 2 && stack[1].name === 'property') stack[stack.length - 1].children.push(node);
      stack.push(node);
    },
    ontext(data: string) {
      if (problem) return;
      if (stack.length === 0) {
        if (data.trim() !== '') fail('text outside the root element');
        return;
      }
      if (stack.length >= 2 && stack[1].name === 'property') {
        propertyChars += data.length;
        if (propertyChars > MAX_PROPERTY_CHARS) return fail('a <property> larger than 2,000,000 characters');
        stack[stack.length - 1].text += data;
      }
    },
    onclosetag(name: string, isImplied: boolean) {
      if (problem) return;
      if (isImplied && !selfClosing) return fail(`<${name}> is not closed`);
      if (!isImplied) explicitCloses += 1;
      const node = stack.pop();
      if (!node) return fail('a closing tag without an element');
      if (stack.length === 0) rootClosed = true;
      if (stack.length === 1 && node.name === 'property') {
        propertyChars = 0;
        results.add(() => map(node));
      }
    },
  };

  /** Notes a closing tag that closes nothing (htmlparser2 drops it silently) and self-closed tags. */
  class CheckedParser extends Parser {
    override onclosetag(start: number, endIndex: number): void {
      const before = explicitCloses;
      super.onclosetag(start, endIndex);
      if (!problem && explicitCloses === before) fail('a closing tag does not match the open element');
    }
    override onselfclosingtag(endIndex: number): void {
      selfClosing = true;
      try {
        super.onselfclosingtag(endIndex);
      } finally {
        selfClosing = false;
      }
    }
  }

  const parser = new CheckedParser(handler, {
    xmlMode: true,
    decodeEntities: true,
    lowerCaseTags: true,
    lowerCaseAttributeNames: true,
  });

  return {
    write(chunk: string) {
      if (problem) return;
      parser.write(chunk);
    },
    end(): FeedParseResult {
      if (!problem) parser.end();
      if (problem) throw new MalformedFeedError(`Malformed ${format} XML: ${problem}.`);
      if (!rootSeen || !rootClosed)
        throw new MalformedFeedError(`Malformed ${format} XML: no <root> element.`);
      return results.result();
    },
  };
}
