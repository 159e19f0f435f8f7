import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MalformedFeedError } from './feed-parser';
import { parseRedsp } from './redsp';

const fixture = readFileSync(join(__dirname, '../../../../../test/fixtures/feeds/redsp.xml'), 'utf8');

describe('REDSP XML', () => {
  it('reads the valid properties; one without a town is skipped', () => {
    const result = parseRedsp(fixture);
    expect(result.entries).toHaveLength(9);
    expect(result.skipped).toBe(1);
    expect(result.issues).toEqual(['entry 5004: no town']);
  });

  it('maps the Kyero-like fields plus title, development, postcode, delivery date and parking', () => {
    const [first, second] = parseRedsp(fixture).entries;
    expect(first).toMatchObject({
      externalId: '5000',
      reference: 'RS-000',
      title: 'New build apartment & garden in Benahavís',
      description: 'Key-ready home number 0.',
      propertyType: 'apartment',
      price: '210000.00',
      countryCode: 'ES',
      city: 'Benahavís',
      region: 'Málaga',
      community: 'Residencial Las Palmeras 0',
      postalCode: '29600',
      condition: 'new',
      completionDate: '2027-01-15',
      parkingSpaces: 0,
      bedrooms: 2,
      livingArea: '80.00',
      plotArea: '200.00',
      energyRating: 'A',
      features: ['pool', 'roof_terrace', 'sea_view', 'alarm'],
    });
    expect(first.images.map((image) => image.url)).toEqual([
      'https://cdn.redsp.example.com/0/1.jpg',
      'https://cdn.redsp.example.com/0/2.jpg',
      'https://cdn.redsp.example.com/0/3.jpg',
    ]);
    expect(second).toMatchObject({
      externalId: '5001',
      parkingSpaces: 1,
      propertyType: 'villa',
      features: expect.arrayContaining(['pool', 'parking', 'gated_community']),
      additionalFeatures: { feedFeatures: ['Tennis court'] },
    });
  });

  it('refuses a malformed document', () => {
    expect(() => parseRedsp(fixture.replace('</root>', ''))).toThrow(MalformedFeedError);
    expect(() => parseRedsp('<feed><property/></feed>')).toThrow(
      'Malformed REDSP XML: the root element is <feed>, not <root>.',
    );
  });
});
