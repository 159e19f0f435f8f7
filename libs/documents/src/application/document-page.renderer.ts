import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';
import { escapeHtml, htmlPage } from '@app/platform';
import type { DocumentKind } from '../domain/document.entity';

/** What the public page shows of a document. */
export interface PageDocument {
  title: string;
  kind: DocumentKind;
  body: string;
  file?: { fileName: string } | null;
}

/** Schemes a link may carry; images only load over http(s) (the CSP then allows https and data only). */
const LINK_SCHEMES = ['http', 'https', 'mailto'];
const LINK_REL = 'nofollow noopener noreferrer';

/**
 * GFM Markdown as markdown-it renders it with raw HTML off (it shows as text), tables and
 * linkify on; then the sanitize-html allow-list below, which is the safety net: whatever the
 * renderer lets through, only these tags, attributes and URL schemes remain.
 */
const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false }).enable([
  'table',
  'strikethrough',
]);

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'blockquote',
    'ul',
    'ol',
    'li',
    'strong',
    'em',
    's',
    'del',
    'code',
    'pre',
    'a',
    'img',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel'],
    img: ['src', 'alt', 'title'],
    ol: ['start'],
    th: ['style'],
    td: ['style'],
    code: ['class'],
  },
  allowedClasses: { code: ['language-*'] },
  allowedStyles: {
    th: { 'text-align': [/^(left|right|center)$/] },
    td: { 'text-align': [/^(left|right|center)$/] },
  },
  allowedSchemes: LINK_SCHEMES,
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // every link, whatever it said, leaves without the page's referrer or its weight
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: LINK_REL }) },
};

/** Markdown → HTML safe to serve (raw HTML, scripts, handlers and other schemes gone). */
export const renderMarkdown = (body: string): string => sanitizeHtml(markdown.render(body), SANITIZE);

/** A whiteboard's outline (`- text` lines) as a list, every line escaped text. */
export const renderOutline = (outline: string): string => {
  const items = outline
    .split('\n')
    .map((line) => line.replace(/^- /, '').trim())
    .filter((line) => line.length > 0);
  return items.length === 0
    ? '<p>This whiteboard is empty.</p>'
    : `<ul>\n${items.map((item) => `<li>${escapeHtml(item)}</li>`).join('\n')}\n</ul>`;
};

/** The whole public page of a document: its escaped title, then its content by kind. */
export const renderDocumentPage = (document: PageDocument): string => {
  let content: string;
  if (document.kind === 'markdown') content = renderMarkdown(document.body);
  else if (document.kind === 'whiteboard') content = renderOutline(document.body);
  else
    content = `<p class="file-note">File not available on this page${
      document.file ? ` (${escapeHtml(document.file.fileName)})` : ''
    }.</p>`;
  return htmlPage(document.title, `<h1>${escapeHtml(document.title)}</h1>\n<main>\n${content}\n</main>`);
};
