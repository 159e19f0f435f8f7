import { DomUtils, parseDocument } from 'htmlparser2';
import {
  httpsUrl,
  renderBrochurePage,
  renderListing,
  themeOf,
  type PageBrochure,
  type PageListing,
} from './brochure-page.renderer';

const brochure = (overrides: Partial<PageBrochure> = {}): PageBrochure => ({
  title: 'Homes for the Smiths',
  recipientName: 'Jane Smith',
  recipientNote: 'As discussed,\nthree homes.',
  themeName: 'coastal',
  accentColorOverride: null,
  showLocations: true,
  expiresAt: new Date('2026-12-24T10:00:00Z'),
  ...overrides,
});

const snapshot = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  title: 'Sea-view apartment',
  price: '350000.00',
  currency: 'EUR',
  rentPeriod: null,
  operation: 'sale',
  propertyType: 'apartment',
  bedrooms: 3,
  bathrooms: 2,
  livingArea: 120,
  areaUnit: 'sqm',
  city: 'Málaga',
  community: 'El Limonar',
  addressLine1: 'Calle Mar 7',
  postalCode: '29016',
  coordinates: { lat: 36.72, lon: -4.41 },
  description: 'Bright and quiet.',
  features: ['pool', 'terrace'],
  images: [
    { url: 'https://cdn.example/one.jpg', caption: 'Living room' },
    { url: 'http://cdn.example/two.jpg', caption: null },
    { url: 'javascript:alert(1)', caption: null },
  ],
  ...overrides,
});

const listing = (overrides: Record<string, unknown> = {}, edits: PageListing['edits'] = {}): PageListing => ({
  snapshot: snapshot(overrides),
  edits,
});

const HOSTILE = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "'><svg onload=alert(1)>",
  '<style>body{display:none}</style>',
  '<iframe src="https://evil.example"></iframe>',
  'javascript:alert(1)',
];

const elementsOf = (html: string) => DomUtils.findAll(() => true, parseDocument(html).children);

describe('brochure page renderer', () => {
  it('theme: the catalogue accent, a valid override wins, anything else falls back', () => {
    expect(themeOf('coastal', null)).toEqual({ name: 'coastal', accentColor: '#0E7490' });
    expect(themeOf('coastal', '#ff0066')).toEqual({ name: 'coastal', accentColor: '#ff0066' });
    expect(themeOf('luxury', 'red;}</style><script>')).toEqual({ name: 'luxury', accentColor: '#8B6B2E' });
    expect(themeOf('no-such-theme', null)).toEqual({ name: 'classic', accentColor: '#1F3A5F' });
  });

  it('https URLs only', () => {
    expect(httpsUrl('https://cdn.example/a.jpg')).toBe('https://cdn.example/a.jpg');
    for (const bad of [
      'http://cdn.example/a.jpg',
      'javascript:alert(1)',
      'data:image/png;base64,AA',
      '/a.jpg',
      7,
      null,
    ])
      expect(httpsUrl(bad)).toBeNull();
  });

  it('renders the header, the agent card and every listing fact', () => {
    const html = renderBrochurePage(brochure(), [listing()], {
      firstName: 'Alba',
      lastName: 'Agent',
      title: 'Senior agent',
      displayEmail: 'alba@agency.example',
      phoneNumber: '+34 600 000 001',
      avatarUrl: 'https://cdn.example/alba.jpg',
    });
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<title>Homes for the Smiths</title>');
    expect(html).toContain('class="brochure theme-coastal" style="--accent:#0E7490;');
    expect(html).toContain('<p class="recipient">Prepared for Jane Smith</p>');
    expect(html).toContain('<p class="note">As discussed,\nthree homes.</p>');
    expect(html).toContain('<strong>Alba Agent</strong>');
    expect(html).toContain('<a href="mailto:alba@agency.example">alba@agency.example</a>');
    expect(html).toContain('<a href="tel:+34600000001">+34 600 000 001</a>');
    expect(html).toContain('<img src="https://cdn.example/alba.jpg" alt="">');
    expect(html).toContain('<h2>Sea-view apartment</h2>');
    expect(html).toContain('<p class="price">350,000 EUR</p>');
    expect(html).toContain(
      '<li>Apartment</li><li>For sale</li><li>3 bedrooms</li><li>2 bathrooms</li><li>120 m²</li>',
    );
    expect(html).toContain('Calle Mar 7, 29016');
    expect(html).toContain('El Limonar, Málaga');
    expect(html).toContain('https://www.openstreetmap.org/?mlat=36.72&amp;mlon=-4.41#map=16/36.72/-4.41');
    expect(html).toContain('<p class="description">Bright and quiet.</p>');
    expect(html).toContain('<ul class="features"><li>Swimming pool</li><li>Terrace</li></ul>');
    expect(html).toContain('<img src="https://cdn.example/one.jpg" alt="Living room" loading="lazy">');
    expect(html).not.toContain('http://cdn.example/two.jpg');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('available until 2026-12-24');
  });

  it('applies the title edit and leaves hidden fields out', () => {
    const html = renderListing(
      listing(
        {},
        {
          title: 'Renamed <home>',
          hiddenFields: ['price', 'address', 'coordinates', 'description', 'features'],
        },
      ),
      true,
    );
    expect(html).toContain('<h2>Renamed &lt;home&gt;</h2>');
    expect(html).not.toContain('Sea-view apartment');
    for (const absent of [
      '350,000',
      'class="price"',
      'Calle Mar',
      '29016',
      'openstreetmap',
      'Bright and quiet',
      'class="features"',
    ])
      expect(html).not.toContain(absent);
    // the city stays: only the street is the address
    expect(html).toContain('El Limonar, Málaga');
  });

  it('without showLocations: no city, address or map link', () => {
    const html = renderListing(listing(), false);
    for (const absent of ['Málaga', 'Calle Mar', 'openstreetmap', 'class="location"'])
      expect(html).not.toContain(absent);
    expect(html).toContain('<p class="price">350,000 EUR</p>');
  });

  it('a rent shows its period; a listing without coordinates has no map link', () => {
    const html = renderListing(
      listing({ operation: 'rent', rentPeriod: 'month', price: '1200.50', coordinates: null }),
      true,
    );
    expect(html).toContain('<p class="price">1,200.5 EUR / month</p>');
    expect(html).not.toContain('openstreetmap');
  });

  it.each(HOSTILE)('renders %j inert in every text it shows', (hostile) => {
    const html = renderBrochurePage(
      brochure({
        title: hostile,
        recipientName: hostile,
        recipientNote: hostile,
        accentColorOverride: hostile,
      }),
      [
        listing({
          title: hostile,
          description: hostile,
          city: hostile,
          addressLine1: hostile,
          currency: hostile,
          features: [hostile],
          images: [{ url: `https://cdn.example/${hostile}`, caption: hostile }, { url: hostile }],
        }),
        listing({}, { title: hostile }),
      ],
      {
        firstName: hostile,
        lastName: hostile,
        title: hostile,
        displayEmail: hostile,
        phoneNumber: hostile,
        avatarUrl: hostile,
      },
    );
    for (const element of elementsOf(html)) {
      expect(['script', 'iframe', 'svg', 'form']).not.toContain(element.name);
      // the one style element is the page's own
      if (element.name === 'style') expect(DomUtils.textContent(element)).not.toContain('display:none');
      for (const [name, value] of Object.entries(element.attribs)) {
        expect(name.startsWith('on')).toBe(false);
        if (name === 'href' || name === 'src') expect(value).toMatch(/^(https:|mailto:|tel:)/);
      }
    }
  });
});
