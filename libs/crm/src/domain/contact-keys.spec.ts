import { defaultOrigin, emailKey, ORIGIN_PATTERN, phoneKey } from './contact-keys';

describe('contact keys', () => {
  it('matches email ignoring case and spaces', () => {
    expect(emailKey('  Ana.Ruiz@Example.COM ')).toBe('ana.ruiz@example.com');
    expect(emailKey('')).toBeNull();
    expect(emailKey(undefined)).toBeNull();
  });

  it('reads phones as E.164 with the default region, else by their digits', () => {
    expect(phoneKey('612 34 56 78')).toBe('+34612345678');
    expect(phoneKey('+34 612-345-678')).toBe('+34612345678');
    expect(phoneKey('0034 612 345 678')).toBe('+34612345678');
    expect(phoneKey('06 12 34 56 78', 'FR')).toBe('+33612345678');
    expect(phoneKey('+44 20 7946 0958', 'FR')).toBe('+442079460958');
    expect(phoneKey('ext. 12')).toBe('12');
    expect(phoneKey('n/a')).toBeNull();
    expect(phoneKey('  ')).toBeNull();
  });

  it('knows the origin pattern and its default', () => {
    expect(ORIGIN_PATTERN.test('portal:idealista')).toBe(true);
    expect(ORIGIN_PATTERN.test('website:casa.es')).toBe(true);
    expect(ORIGIN_PATTERN.test('Portal:idealista')).toBe(false);
    expect(ORIGIN_PATTERN.test('portal:')).toBe(false);
    expect(ORIGIN_PATTERN.test('fax:one')).toBe(false);
    expect(defaultOrigin('aircall')).toBe('other:aircall');
  });
});
