import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MalformedFeedError, parseWhole } from './feed-parser';
import { kyeroParser, parseKyero } from './kyero';

const fixture = readFileSync(join(__dirname, '../../../../../test/fixtures/feeds/kyero.xml'), 'utf8');

describe('Kyero v3 XML', () => {
  it('reads every valid <property>; one without a price is skipped and counted', () => {
    const result = parseKyero(fixture);
    expect(result.entries).toHaveLength(9);
    expect(result.skipped).toBe(1);
    expect(result.issues).toEqual(['entry KY-1009: no valid price']);
  });

  it('maps the common fields to listing columns', () => {
    const [first, second] = parseKyero(fixture).entries;
    expect(first).toMatchObject({
      externalId: 'KY-1000',
      reference: 'KY100',
      title: 'Apartment in Marbella',
      operation: 'sale',
      rentPeriod: null,
      propertyType: 'apartment',
      price: '150000.00',
      currency: 'EUR',
      countryCode: 'ES',
      region: 'Málaga',
      city: 'Marbella',
      community: 'Nueva Andalucía',
      lat: 36.5101,
      lon: -4.8825,
      bedrooms: 1,
      bathrooms: '1.0',
      areaUnit: 'sqm',
      livingArea: '60.00',
      plotArea: null,
      energyRating: 'A',
      condition: null,
      features: ['pool', 'sea_view', 'air_conditioning'],
      additionalFeatures: null,
    });
    // CDATA and entities read as text; English first; images in `id` order
    expect(first.description).toBe(
      'Bright apartment in Marbella & close to the beach.\nTwo lines <b>here</b>.',
    );
    expect(first.images.map((image) => image.url)).toEqual([
      'https://images.example.com/ky/0/1.jpg',
      'https://images.example.com/ky/0/2.jpg',
    ]);
    expect(first.images[0]).toEqual({
      mediaId: null,
      extension: null,
      url: 'https://images.example.com/ky/0/1.jpg',
      caption: null,
    });
    // new build → condition new; `<pool>1` → pool; unknown amenities kept aside
    expect(second).toMatchObject({
      propertyType: 'villa',
      condition: 'new',
      countryCode: 'ES',
      plotArea: '450.00',
      features: ['pool', 'private_pool', 'garden', 'elevator'],
      additionalFeatures: { feedFeatures: ['Hammam'] },
    });
  });

  it('maps types (unknown → other) and monthly prices to rentals', () => {
    const byId = new Map(parseKyero(fixture).entries.map((entry) => [entry.externalId, entry]));
    expect(byId.get('KY-1002')?.propertyType).toBe('townhouse');
    expect(byId.get('KY-1005')?.propertyType).toBe('house'); // Finca
    expect(byId.get('KY-1007')?.propertyType).toBe('land'); // Plot
    expect(byId.get('KY-1006')).toMatchObject({ operation: 'rent', rentPeriod: 'month', price: '1200.00' });
    const quad = parseKyero(
      '<root><property><id>q</id><price>1</price><type>Igloo</type><town>X</town><price_freq>fortnight</price_freq></property>' +
        '<property><id>r</id><price>1</price><type>Igloo</type><town>X</town><country>Atlantis</country></property>' +
        '<property><id>s</id><price>1</price><type>Igloo</type><town>X</town></property></root>',
    );
    expect(quad.entries.map((entry) => [entry.externalId, entry.propertyType, entry.countryCode])).toEqual([
      ['s', 'other', 'ES'],
    ]);
    expect(quad.skipped).toBe(2);
  });

  it('streams: the same result however the document is cut into chunks', () => {
    const parser = kyeroParser();
    for (let at = 0; at < fixture.length; at += 97) parser.write(fixture.slice(at, at + 97));
    expect(parser.end()).toEqual(parseKyero(fixture));
  });

  it('keeps the last copy of a repeated id and counts the earlier one', () => {
    const result = parseKyero(
      '<root><property><id>a</id><price>1</price><town>X</town></property>' +
        '<property><id>a</id><price>2</price><town>X</town></property></root>',
    );
    expect(result.entries.map((entry) => entry.price)).toEqual(['2.00']);
    expect(result.skipped).toBe(1);
  });

  it.each([
    ['truncated', fixture.slice(0, fixture.length / 2)],
    ['mismatched tags', '<root><property><id>1</price></property></root>'],
    ['a stray closing tag', '<root><property><id>1</id></property></town></root>'],
    ['another root', '<html><body>Not found</body></html>'],
    ['two roots', '<root></root><root></root>'],
    ['text outside the root', '<root></root> trailing'],
    ['no document', ''],
    ['JSON', '{"id": 1}'],
  ])('refuses a malformed document (%s)', (_case, document) => {
    expect(() => parseWhole(kyeroParser(), document)).toThrow(MalformedFeedError);
  });

  it('refuses a DTD and expands no entity but the XML ones', () => {
    expect(() =>
      parseKyero(
        '<?xml version="1.0"?><!DOCTYPE root [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>' +
          '<root><property><id>e</id><price>1</price><town>&xxe;</town></property></root>',
      ),
    ).toThrow('Malformed Kyero XML: a DOCTYPE is not accepted.');
    const result = parseKyero(
      '<root><property><id>e</id><price>1</price><town>&xxe;</town><desc>&lt;b&gt; &#233;</desc></property></root>',
    );
    expect(result.entries[0]).toMatchObject({ city: '&xxe;', description: '<b> é' });
  });

  it('an empty feed is valid: no listings', () => {
    expect(parseKyero('<?xml version="1.0"?>\n<root>\n</root>\n')).toEqual({
      entries: [],
      skipped: 0,
      issues: [],
    });
    expect(parseKyero('<root/>')).toEqual({ entries: [], skipped: 0, issues: [] });
  });
});
