import { DAY, DomainError, HOUR, SCOPES_GRANTABLE, type Scope } from '@app/platform/core';
import { ApiKey } from './api-key.entity';
import type { KeyFacts } from './api-key.repository';
import {
  acceptsCallsAt,
  ADMIN_ONLY_SCOPES,
  assertGrantable,
  defaultScopes,
  grantableScopes,
  isLegacyKey,
  keyStatusAt,
  KeyLife,
  parseAllowedOrigins,
  parseExpiry,
  refuseWebsitesWithServerScopes,
  stoppedAt,
  V1_KEYS_SINCE,
} from './api-key.rules';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const later = (ms: number) => new Date(NOW.getTime() + ms);
const life = (overrides: Partial<KeyLife> = {}): KeyLife => ({
  revokedAt: null,
  expiresAt: null,
  rotatedToId: null,
  graceUntil: null,
  legacy: false,
  lineageCreatedAt: NOW,
  ...overrides,
});
const errorOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err as DomainError;
  }
  return undefined;
};
const codeOf = (fn: () => unknown) => errorOf(fn)?.code;
const key = (props: { ownerId?: string; scopes?: Scope[]; allowedOrigins?: string[] } = {}) =>
  ApiKey.create(
    {
      organizationId: 'org',
      ownerId: props.ownerId ?? 'owner',
      name: 'k',
      scopes: props.scopes ?? ['properties:read'],
      allowedOrigins: props.allowedOrigins ?? [],
    },
    NOW,
  );
const owner = { userId: 'owner', role: 'member' as const };
const colleague = { userId: 'colleague', role: 'member' as const };
const admin = { userId: 'admin', role: 'admin' as const };

describe('api key rules', () => {
  describe('the life of a key', () => {
    it('names the status a key shows: revoked wins over rotated, rotated over expired', () => {
      expect(keyStatusAt(life(), NOW)).toBe('active');
      expect(keyStatusAt(life({ expiresAt: NOW }), NOW)).toBe('expired');
      expect(keyStatusAt(life({ expiresAt: NOW, rotatedToId: 'next' }), NOW)).toBe('rotated');
      expect(keyStatusAt(life({ rotatedToId: 'next', revokedAt: NOW }), NOW)).toBe('revoked');
    });

    it('says why a secret stopped, in the order the door refuses: revoked, expired, rotated', () => {
      expect(stoppedAt(life(), NOW)).toBeNull();
      expect(stoppedAt(life({ revokedAt: NOW, expiresAt: NOW }), NOW)).toBe('revoked');
      expect(stoppedAt(life({ expiresAt: NOW, rotatedToId: 'next' }), NOW)).toBe('expired');
      expect(stoppedAt(life({ rotatedToId: 'next', graceUntil: NOW }), NOW)).toBe('rotated');
      expect(stoppedAt(life({ rotatedToId: 'next', graceUntil: null }), NOW)).toBe('rotated');
    });

    it('keeps a rotated key working inside its grace only', () => {
      const rotated = life({ rotatedToId: 'next', graceUntil: later(24 * HOUR) });
      expect(acceptsCallsAt(rotated, later(24 * HOUR - 1))).toBe(true);
      expect(acceptsCallsAt(rotated, later(24 * HOUR))).toBe(false);
    });

    it('calls a key legacy when flagged or when its lineage predates 4 October 2026', () => {
      expect(isLegacyKey(life())).toBe(false);
      expect(isLegacyKey(life({ legacy: true }))).toBe(true);
      expect(isLegacyKey(life({ lineageCreatedAt: new Date(V1_KEYS_SINCE.getTime() - 1) }))).toBe(true);
      expect(isLegacyKey(life({ lineageCreatedAt: V1_KEYS_SINCE }))).toBe(false);
    });

    it('judges the entity and the door’s cached facts alike', () => {
      const entity = key();
      entity.rotate('owner', NOW);
      const facts: Pick<KeyFacts, keyof KeyLife> = {
        revokedAt: entity.revokedAt,
        expiresAt: entity.expiresAt,
        rotatedToId: entity.rotatedToId,
        graceUntil: entity.graceUntil,
        legacy: entity.legacy,
        lineageCreatedAt: entity.lineageCreatedAt,
      };
      for (const at of [NOW, later(23 * HOUR), later(25 * HOUR)]) {
        expect(entity.acceptsCallsAt(at)).toBe(acceptsCallsAt(facts, at));
        expect(entity.statusAt(at)).toBe(keyStatusAt(facts, at));
      }
      expect(entity.isLegacy).toBe(isLegacyKey(facts));
    });
  });

  describe('grants', () => {
    it('lets only an admin grant the admin-only scopes', () => {
      expect(codeOf(() => assertGrantable('member', ['properties:read', 'media:write']))).toBe(
        'API_KEY_SCOPE_NOT_GRANTABLE',
      );
      expect(errorOf(() => assertGrantable('member', ['properties:write']))?.message).toBe(
        'Only an admin can grant properties:write or media:write.',
      );
      expect(codeOf(() => assertGrantable('admin', [...ADMIN_ONLY_SCOPES]))).toBeUndefined();
    });

    it('lists what each role may grant and what a key gets without scopes', () => {
      expect(grantableScopes('admin')).toEqual([...SCOPES_GRANTABLE]);
      expect(grantableScopes('member').some((s) => ADMIN_ONLY_SCOPES.includes(s))).toBe(false);
      expect(defaultScopes('admin')).toEqual([
        'properties:read',
        'sources:read',
        'properties:write',
        'media:write',
        'agents:read',
      ]);
      expect(defaultScopes('member')).toEqual(['properties:read', 'sources:read', 'agents:read']);
    });

    it('refuses websites on a key with server scopes', () => {
      expect(codeOf(() => refuseWebsitesWithServerScopes(['crm:read'], ['https://a.example']))).toBe(
        'API_KEY_ORIGINS_NOT_ALLOWED_FOR_SERVER_SCOPES',
      );
      expect(codeOf(() => refuseWebsitesWithServerScopes(['crm:read'], []))).toBeUndefined();
      expect(codeOf(() => refuseWebsitesWithServerScopes(['properties:read'], ['https://a.example']))).toBe(
        undefined,
      );
    });

    it('parses websites, naming every bad entry, and refuses repeats', () => {
      expect(parseAllowedOrigins(['https://A.example/', 'http://localhost:3000'])).toEqual([
        'https://a.example',
        'http://localhost:3000',
      ]);
      expect(
        errorOf(() => parseAllowedOrigins(['https://a.example/x', 'http://a.example']))?.details,
      ).toEqual({
        issues: [
          expect.objectContaining({ path: 'allowedOrigins.0' }),
          expect.objectContaining({ path: 'allowedOrigins.1' }),
        ],
      });
      expect(
        errorOf(() => parseAllowedOrigins(['https://a.example', 'https://a.example/']))?.details,
      ).toEqual({
        issues: [{ path: 'allowedOrigins', message: 'must not repeat' }],
      });
    });

    it('takes an expiry in the next 3650 days, or null', () => {
      expect(parseExpiry(null, NOW)).toBeNull();
      expect(parseExpiry(later(DAY).toISOString(), NOW)).toEqual(later(DAY));
      expect(parseExpiry(later(3650 * DAY).toISOString(), NOW)).toEqual(later(3650 * DAY));
      for (const bad of [NOW.toISOString(), later(3650 * DAY + 1).toISOString(), 'soon']) {
        expect(codeOf(() => parseExpiry(bad, NOW))).toBe('VALIDATION_FAILED');
      }
    });
  });

  describe('on the entity', () => {
    it('issues a member’s key with their defaults and refuses their admin-only scopes', () => {
      const actor = { organizationId: 'org', ...owner };
      expect(ApiKey.issue(actor, { name: 'k' }, NOW).scopes).toEqual(defaultScopes('member'));
      expect(codeOf(() => ApiKey.issue(actor, { name: 'k', scopes: ['media:write'] }, NOW))).toBe(
        'API_KEY_SCOPE_NOT_GRANTABLE',
      );
    });

    it('lets an admin manage a colleague’s key, a member only their own', () => {
      expect(codeOf(() => key().assertManageableBy(owner))).toBeUndefined();
      expect(codeOf(() => key().assertManageableBy(admin))).toBeUndefined();
      expect(codeOf(() => key().assertManageableBy(colleague))).toBe('API_KEY_NOT_YOURS');
    });

    it('refuses the reserved scope, and widening by anyone but the owner', () => {
      expect(codeOf(() => key().change(owner, { scopes: ['agents:read'] }, NOW))).toBe(
        'API_KEY_SCOPE_RESERVED',
      );
      expect(codeOf(() => key().change(admin, { scopes: ['sources:read'] }, NOW))).toBe('API_KEY_NOT_YOURS');
      expect(codeOf(() => key().change(owner, { scopes: ['media:write'] }, NOW))).toBe(
        'API_KEY_SCOPE_NOT_GRANTABLE',
      );
      const wide = key({ scopes: ['properties:read', 'sources:read'] });
      wide.change(admin, { scopes: ['sources:read'] }, NOW); // narrowing: anyone who manages it
      expect(wide.scopes).toEqual(['sources:read']);
    });

    it('lets only the owner remove every website', () => {
      const site = () => key({ allowedOrigins: ['https://a.example'] });
      expect(codeOf(() => site().change(admin, { allowedOrigins: [] }, NOW))).toBe('API_KEY_NOT_YOURS');
      const mine = site();
      mine.change(owner, { allowedOrigins: [] }, NOW);
      expect(mine.allowedOrigins).toEqual([]);
    });

    it('changes nothing when one part of the change is refused', () => {
      const k = key();
      expect(codeOf(() => k.change(owner, { name: 'new', expiresAt: 'soon' }, NOW))).toBe(
        'VALIDATION_FAILED',
      );
      expect(k.name).toBe('k');
    });
  });
});
