import { Brochure, brochureSlug } from './brochure.entity';

const fixed = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => i));

describe('brochureSlug', () => {
  it('slugifies the title (accents dropped, runs of other characters as one dash) + 10 base32 characters', () => {
    expect(brochureSlug('Villas en Málaga — Sea view!', fixed)).toBe('villas-en-malaga-sea-view-abcdefghij');
    expect(brochureSlug('Villas', () => Buffer.alloc(10, 255))).toBe('villas-7777777777');
  });

  it('keeps at most 40 characters of the title, never ending in a dash', () => {
    const slug = brochureSlug('a'.repeat(39) + ' bcd', fixed);
    expect(slug).toBe(`${'a'.repeat(39)}-abcdefghij`);
    expect(brochureSlug('x'.repeat(60), fixed).split('-')[0]).toHaveLength(40);
  });

  it('a title with no letters or digits gives `brochure`', () => {
    expect(brochureSlug('¡¿—!?', fixed)).toBe('brochure-abcdefghij');
  });

  it('random suffixes differ', () => {
    expect(brochureSlug('Same')).not.toBe(brochureSlug('Same'));
    expect(brochureSlug('Same')).toMatch(/^same-[a-z2-7]{10}$/);
  });
});

describe('Brochure status', () => {
  const now = new Date('2026-11-24T12:00:00Z');
  const make = () =>
    new Brochure(
      { organizationId: 'o', slug: 's', title: 't', agentUserId: 'u', creatorUserId: 'u', expiresInDays: 1 },
      now,
    );

  it('shows expired as soon as expiresAt passes; revoke and renew from any status', () => {
    const brochure = make();
    expect(brochure.statusAt(now)).toBe('active');
    const later = new Date(now.getTime() + 86_400_000);
    expect(brochure.statusAt(later)).toBe('expired');
    brochure.revoke(later);
    expect(brochure.statusAt(later)).toBe('revoked');
    brochure.renew(30, later);
    expect(brochure.statusAt(later)).toBe('active');
    expect(brochure.expiresAt).toEqual(new Date(later.getTime() + 30 * 86_400_000));
    expect(brochure.revokedAt).toBeNull();
  });
});
