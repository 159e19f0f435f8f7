import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MalformedFeedError } from './feed-parser';
import { jsonFeedParser, parseJsonFeed } from './jsonfeed';

const fixture = readFileSync(join(__dirname, '../../../../../test/fixtures/feeds/feed.jsonl'), 'utf8');

describe('JSON Lines feed (jsonfeed)', () => {
  it('reads one object a line; blank lines ignored; bad lines and entries skipped and counted', () => {
    const result = parseJsonFeed(fixture);
    expect(result.entries.map((entry) => entry.externalId)).toEqual([
      'jf-1',
      'jf-2',
      'jf-3',
      'jf-4',
      'jf-5',
      'jf-6',
      'jf-7',
      'jf-8',
      'jf-10',
    ]);
    expect(result.skipped).toBe(2);
    expect(result.issues).toEqual(['line 7: not JSON', 'entry jf-9: no town']);
  });

  it('takes our payload field names, `id` and `images` as URLs', () => {
    const entries = parseJsonFeed(fixture).entries;
    expect(entries[0]).toMatchObject({
      externalId: 'jf-1',
      reference: 'JF01',
      title: 'Apartment near Marbella',
      description: 'Line one.\nLine two.',
      operation: 'sale',
      propertyType: 'apartment',
      price: '300000.00',
      currency: 'EUR',
      countryCode: 'ES',
      city: 'Marbella',
      lat: 36.5101,
      lon: -4.8825,
      bathrooms: '1.5',
      livingArea: '90.00',
      features: ['pool', 'sea_view'],
      additionalFeatures: { feedFeatures: ['helipad'] },
      images: [
        { mediaId: null, extension: null, url: 'https://img.jsonfeed.example.com/0/a.jpg', caption: null },
        { mediaId: null, extension: null, url: 'https://img.jsonfeed.example.com/0/b.jpg', caption: null },
      ],
    });
    expect(entries[3]).toMatchObject({ operation: 'rent', rentPeriod: 'month', price: '2500.00' });
    // `boathouse` is no property type of ours
    expect(entries.at(-1)).toMatchObject({ externalId: 'jf-10', propertyType: 'other' });
  });

  it('streams across chunk boundaries, a BOM and CRLF line ends included', () => {
    const parser = jsonFeedParser();
    const document = '\ufeff' + fixture.replace(/\n/g, '\r\n');
    for (let at = 0; at < document.length; at += 13) parser.write(document.slice(at, at + 13));
    expect(parser.end()).toEqual(parseJsonFeed(fixture));
  });

  it('refuses a document in which no line is a JSON object', () => {
    expect(() => parseJsonFeed('<html>oops</html>\n')).toThrow(MalformedFeedError);
    expect(() => parseJsonFeed('[1, 2]\n"text"\n')).toThrow(MalformedFeedError);
    expect(parseJsonFeed('\n\n')).toEqual({ entries: [], skipped: 0, issues: [] });
  });

  it('skips entries whose required values are not valid', () => {
    const lines = [
      { id: 'a', price: -1, city: 'X', countryCode: 'ES' },
      { id: 'b', price: 1, city: 'X', countryCode: 'Narnia' },
      { id: 'c', price: 1, city: 'X', countryCode: 'ES', currency: 'euro' },
      { id: 'd', price: 1, city: 'X', countryCode: 'ES', operation: 'swap' },
      { price: 1, city: 'X', countryCode: 'ES' },
      { id: 'ok', price: '12.5', city: 'X', countryCode: 'pt', bedrooms: 2.5, yearBuilt: 99 },
    ];
    const result = parseJsonFeed(lines.map((line) => JSON.stringify(line)).join('\n'));
    expect(result.skipped).toBe(5);
    expect(result.entries).toEqual([
      expect.objectContaining({
        externalId: 'ok',
        price: '12.50',
        countryCode: 'PT',
        title: 'Property in X',
        bedrooms: null,
        yearBuilt: null,
      }),
    ]);
  });
});
