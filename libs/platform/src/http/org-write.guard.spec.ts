import { EventEmitter } from 'node:events';
import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { AccessDeclaration } from '../auth/access.decorators';
import type { AppConfig } from '../config/app-config';
import { OrgWriteGuard } from './org-write.guard';

const ORG = 'org_a';

/** A call as the guard sees it: method, declaration, caller; its response emits `close`. */
const callOf = (method: string, access: AccessDeclaration, organizationId: string | null = ORG) => {
  const res = new EventEmitter();
  const req = { method, principal: organizationId ? { organizationId } : undefined };
  const ctx = {
    getHandler: () => undefined,
    getClass: () => undefined,
    switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }),
  } as unknown as ExecutionContext;
  return { ctx, access, close: () => res.emit('close') };
};

const guardFor = (access: AccessDeclaration) => {
  const reflector = { getAllAndOverride: () => access } as unknown as Reflector;
  return new OrgWriteGuard({ databasePoolSize: 10 } as AppConfig, reflector);
};

const writeKey: AccessDeclaration = { kind: 'apiKey', scopes: ['crm:write'], family: 'v1' };
const readKey: AccessDeclaration = { kind: 'apiKey', scopes: ['crm:read'], family: 'v1' };

describe('OrgWriteGuard: which calls take a permit', () => {
  it('a write takes one of its organization’s permits until its response closes', async () => {
    const guard = guardFor(writeKey);
    const call = callOf('POST', writeKey);
    await expect(guard.canActivate(call.ctx)).resolves.toBe(true);
    expect(guard.gate.load(ORG)).toEqual({ active: 1, waiting: 0 });
    call.close();
    expect(guard.gate.load(ORG)).toEqual({ active: 0, waiting: 0 });
  });

  it.each([
    ['a GET', 'GET', writeKey],
    ['a query sent as a POST by a key route needing read scopes only', 'POST', readKey],
  ])('%s takes none', async (_case, method, access) => {
    const guard = guardFor(access as AccessDeclaration);
    await guard.canActivate(callOf(method as string, access as AccessDeclaration).ctx);
    expect(guard.gate.load(ORG)).toEqual({ active: 0, waiting: 0 });
  });

  it('a session write takes one; a call with no organization (sign-up) takes none', async () => {
    const session: AccessDeclaration = { kind: 'session' };
    const guard = guardFor(session);
    await guard.canActivate(callOf('PATCH', session).ctx);
    await guard.canActivate(callOf('POST', { kind: 'public' }, null).ctx);
    expect(guard.gate.load(ORG)).toEqual({ active: 1, waiting: 0 });
  });
});
