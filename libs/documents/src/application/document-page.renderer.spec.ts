import { DomUtils, parseDocument } from 'htmlparser2';
import { renderDocumentPage, renderMarkdown, renderOutline } from './document-page.renderer';

const CORPUS = [
  '<script>alert(1)</script>',
  '[click](javascript:alert(1))',
  '[click](JaVaScRiPt:alert(1))',
  '[click](&#106;avascript:alert(1))',
  '[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '![img](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
  '<img src=x onerror=alert(1)>',
  '<iframe src="https://evil.example"></iframe>',
  '<style>body{display:none}</style>',
  '<svg onload=alert(1)></svg>',
  '<form action="https://evil.example"></form>',
  '<javascript:alert(1)>',
  '[ref]: javascript:alert(1)\n\n[ref]',
  '| a |\n|---|\n| [l](javascript:x) |',
];

const elementsOf = (html: string) => DomUtils.findAll(() => true, parseDocument(html).children);

describe('document page renderer', () => {
  it.each(CORPUS)('renders %j inert', (source) => {
    for (const element of elementsOf(renderMarkdown(source))) {
      expect(['script', 'iframe', 'style', 'form', 'svg']).not.toContain(element.name);
      for (const [name, value] of Object.entries(element.attribs)) {
        expect(name.startsWith('on')).toBe(false);
        if (name === 'href' || name === 'src') expect(value).toMatch(/^(https?|mailto):/);
      }
    }
  });

  it('keeps GFM: headings, emphasis, tables with alignment, code, links with rel, linkified URLs', () => {
    const html = renderMarkdown(
      '## Rooms\n\n**big** _light_ ~~old~~\n\n| room | m² |\n|:--|--:|\n| living | 30 |\n\n' +
        '`code`\n\n[site](https://example.com "Home") www.example.org mail@example.com',
    );
    expect(html).toContain('<h2>Rooms</h2>');
    expect(html).toContain('<strong>big</strong>');
    expect(html).toContain('<s>old</s>');
    expect(html).toContain('<th style="text-align:left">room</th>');
    expect(html).toContain('<td style="text-align:right">30</td>');
    expect(html).toContain('<code>code</code>');
    expect(html).toContain(
      '<a href="https://example.com" title="Home" rel="nofollow noopener noreferrer">site</a>',
    );
    expect(html).toContain('<a href="http://www.example.org" rel="nofollow noopener noreferrer">');
    expect(html).toContain('<a href="mailto:mail@example.com" rel="nofollow noopener noreferrer">');
  });

  it('shows raw HTML as text, and https images only', () => {
    expect(renderMarkdown('<b>x</b>')).toBe('<p>&lt;b&gt;x&lt;/b&gt;</p>\n');
    expect(renderMarkdown('![a](https://img.example/a.png)')).toContain(
      '<img src="https://img.example/a.png" alt="a" />',
    );
    expect(renderMarkdown('![a](data:image/png;base64,AAAA)')).not.toContain('src=');
  });

  it('escapes the title; whiteboards as an escaped list; files as a note', () => {
    const page = renderDocumentPage({ title: '<script>x</script> & co', kind: 'markdown', body: '' });
    expect(page).toContain('<title>&lt;script&gt;x&lt;/script&gt; &amp; co</title>');
    expect(page).toContain('<h1>&lt;script&gt;x&lt;/script&gt; &amp; co</h1>');
    expect(renderOutline('- Kitchen\n- <b>Bath</b>\n')).toBe(
      '<ul>\n<li>Kitchen</li>\n<li>&lt;b&gt;Bath&lt;/b&gt;</li>\n</ul>',
    );
    expect(renderOutline('')).toBe('<p>This whiteboard is empty.</p>');
    expect(
      renderDocumentPage({ title: 'Plan', kind: 'pdf', body: '', file: { fileName: 'plan<1>.pdf' } }),
    ).toContain('File not available on this page (plan&lt;1&gt;.pdf).');
  });
});
