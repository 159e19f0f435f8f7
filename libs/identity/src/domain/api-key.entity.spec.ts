import { DomainError, HOUR, type Scope } from '@app/platform/core';
import { ApiKey } from './api-key.entity';
import { defaultScopes, isServerScope, V1_KEYS_SINCE } from './api-key.rules';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const make = (overrides: Partial<Parameters<typeof ApiKey.create>[0]> = {}) =>
  ApiKey.create(
    {
      organizationId: 'org',
      ownerId: 'owner',
      name: 'k',
      scopes: ['crm:read'],
      allowedOrigins: [],
      ...overrides,
    },
    NOW,
  );
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as DomainError).code;
  }
  return undefined;
};

describe('ApiKey', () => {
  it('keeps only the hash and the first 12 characters of its secret', () => {
    const key = make();
    expect(key.secret).toMatch(/^svc_pk_[A-Za-z0-9]{32}$/);
    expect(key.prefixHint).toBe(key.secret.slice(0, 12));
    expect(key.secretHash).not.toContain(key.secret);
  });

  it('expires after expiresInDays and not before', () => {
    const key = make({ expiresInDays: 1 });
    expect(key.statusAt(new Date(NOW.getTime() + 23 * HOUR))).toBe('active');
    expect(key.statusAt(new Date(NOW.getTime() + 24 * HOUR))).toBe('expired');
  });

  it('rotates into a successor that keeps name, scopes, websites, limit, expiry and owner', () => {
    const key = make({
      scopes: ['properties:read'],
      allowedOrigins: ['https://a.example'],
      expiresInDays: 30,
    });
    key.setRateLimit(600, NOW);
    const next = key.rotate('admin', NOW);
    expect(next).toMatchObject({
      name: 'k',
      scopes: ['properties:read'],
      allowedOrigins: ['https://a.example'],
      rateLimitPerMinute: 600,
      expiresAt: key.expiresAt,
      createdById: 'owner',
      rotatedFromId: key.id,
    });
    expect(key.statusAt(NOW)).toBe('rotated');
    expect(key.acceptsCallsAt(new Date(NOW.getTime() + 23 * HOUR))).toBe(true);
    expect(key.acceptsCallsAt(new Date(NOW.getTime() + 24 * HOUR))).toBe(false);
  });

  it('gives an ownerless key the rotating person as owner', () => {
    const key = make();
    key.createdById = null;
    expect(key.rotate('admin', NOW).createdById).toBe('admin');
  });

  it('refuses a second rotation and a rotation of a revoked key', () => {
    const key = make();
    key.rotate('owner', NOW);
    expect(codeOf(() => key.rotate('owner', NOW))).toBe('API_KEY_ALREADY_ROTATED');
    const revoked = make();
    revoked.revoke(NOW);
    expect(codeOf(() => revoked.rotate('owner', NOW))).toBe('API_KEY_NOT_ACTIVE');
  });

  it('stays legacy through rotation when its first key predates 4 October 2026', () => {
    const old = ApiKey.create(
      { organizationId: 'org', ownerId: 'owner', name: 'old', scopes: ['crm:read'], allowedOrigins: [] },
      new Date(V1_KEYS_SINCE.getTime() - HOUR),
    );
    expect(old.isLegacy).toBe(true);
    expect(old.rotate('owner', NOW).isLegacy).toBe(true);
    expect(make().isLegacy).toBe(false);
  });

  it('never lets a service-set key be changed, rotated or revoked', () => {
    const key = make();
    key.system = true;
    expect(codeOf(() => key.assertChangeable(NOW))).toBe('FORBIDDEN');
    expect(codeOf(() => key.rotate('owner', NOW))).toBe('FORBIDDEN');
    expect(codeOf(() => key.revoke(NOW))).toBe('FORBIDDEN');
  });

  it('keeps the reserved scope when its scopes are replaced', () => {
    const key = make({ scopes: defaultScopes('member') });
    key.setScopes(['properties:read'], NOW);
    expect(key.scopes).toEqual(['properties:read', 'agents:read']);
  });

  it('tells server scopes apart', () => {
    expect((['crm:read', 'brochures:write', 'documents:read'] as Scope[]).every(isServerScope)).toBe(true);
    expect((['properties:read', 'sources:read', 'media:write'] as Scope[]).some(isServerScope)).toBe(false);
  });
});
