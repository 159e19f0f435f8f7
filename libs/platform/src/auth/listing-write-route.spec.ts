import { Controller, ExecutionContext, Get, Post } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { DomainError } from '../errors/domain-error';
import { ACCESS, ADMIN_ONLY, ListingRoute, ListingWriteRoute } from './access.decorators';
import { AdminGuard } from './admin.guard';
import type { ApiKeyPrincipal, Role } from './principal';
import { ScopeGuard } from './scope.guard';

@Controller('properties')
class WriteController {
  @Post()
  @ListingWriteRoute('properties:write')
  create(): void {}

  @Post('media/upload')
  @ListingWriteRoute('media:write')
  upload(): void {}

  @Get('themes')
  @ListingRoute('properties:read')
  themes(): void {}
}

const principal = (role: Role, extra: Partial<ApiKeyPrincipal> = {}): ApiKeyPrincipal => ({
  kind: 'apiKey',
  keyId: 'key-1',
  keyName: 'Website',
  prefixHint: 'svc_pk_abcde',
  scopes: ['properties:read', 'properties:write', 'media:write'],
  expiresAt: null,
  rateLimitPerMinute: null,
  userId: 'user-1',
  organizationId: 'org-1',
  role,
  planActive: true,
  ...extra,
});

const contextOf = (method: keyof WriteController, who: ApiKeyPrincipal): ExecutionContext => {
  const req = { principal: who };
  const ctx = new ExecutionContextHost(
    [req, {}, () => undefined],
    WriteController,
    WriteController.prototype[method],
  );
  ctx.setType('http');
  return ctx;
};

const refusalOf = async (guard: AdminGuard | ScopeGuard, ctx: ExecutionContext): Promise<string | null> => {
  try {
    await guard.canActivate(ctx);
    return null;
  } catch (err) {
    return (err as DomainError).code;
  }
};

describe('ListingWriteRoute', () => {
  const reflector = new Reflector();
  const admin = new AdminGuard(reflector);

  it('declares the listing family, its scopes and admin only', () => {
    const handler = WriteController.prototype.create;
    expect(reflector.get(ACCESS, handler)).toEqual({
      kind: 'apiKey',
      scopes: ['properties:write'],
      family: 'listings',
    });
    expect(reflector.get(ADMIN_ONLY, handler)).toBe(true);
    expect(reflector.get(ADMIN_ONLY, WriteController.prototype.themes)).toBeUndefined();
  });

  it.each(['create', 'upload'] as const)(
    "refuses a member's key on %s with 403 ORG_ADMIN_REQUIRED",
    async (method) => {
      expect(await refusalOf(admin, contextOf(method, principal('member')))).toBe('ORG_ADMIN_REQUIRED');
    },
  );

  it.each(['create', 'upload'] as const)("takes an admin's key on %s", async (method) => {
    expect(await refusalOf(admin, contextOf(method, principal('admin')))).toBeNull();
  });

  it('takes an agency key (the departed owner acts with the admin role)', async () => {
    const agencyKey = principal('admin', { agencyKey: true });
    expect(await refusalOf(admin, contextOf('create', agencyKey))).toBeNull();
    expect(await refusalOf(admin, contextOf('upload', agencyKey))).toBeNull();
  });

  it("leaves read routes to any role, and still checks an agency key's scopes", async () => {
    expect(await refusalOf(admin, contextOf('themes', principal('member')))).toBeNull();
    const narrow = principal('admin', { agencyKey: true, scopes: ['properties:read'] });
    expect(await refusalOf(new ScopeGuard(reflector), contextOf('create', narrow))).toBe(
      'API_KEY_SCOPE_MISSING',
    );
  });
});
