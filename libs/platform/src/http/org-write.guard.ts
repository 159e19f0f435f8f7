import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { ACCESS, AccessDeclaration, AuthedRequest } from '../auth/access.decorators';
import { AppConfig } from '../config/app-config';
import { loopClock } from '../db/load-shedding';
import { orgWritePermits, OrgWriteGate } from '../db/org-write-gate';
import { REQUEST_WAITS } from '../db/orm-options';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A query sent as a POST (`POST /v1/search`): a key route that needs read scopes only. */
const readOnly = (access: AccessDeclaration | undefined): boolean =>
  access?.kind === 'apiKey' && access.scopes.length > 0 && access.scopes.every((s) => s.endsWith(':read'));

/**
 * The pipeline's last step: a write by an agency's key, session, integration or MCP key takes one
 * of its organization's permits (`OrgWriteGate`) before it touches the pool, and gives it back
 * when its answer is sent or the connection closes. Reads (a key route needing read scopes only,
 * whatever its method) and anonymous routes pass untouched.
 */
@Injectable()
export class OrgWriteGuard implements CanActivate {
  readonly gate: OrgWriteGate;

  constructor(
    config: AppConfig,
    private readonly reflector: Reflector,
  ) {
    const clock = loopClock();
    this.gate = new OrgWriteGate(orgWritePermits(config.databasePoolSize), REQUEST_WAITS.acquireMs, (now) =>
      clock.lateMs(now),
    );
  }

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const req = ctx.switchToHttp().getRequest<Request & AuthedRequest>();
    if (READS.has(req.method)) return true;
    if (readOnly(this.reflector.getAllAndOverride(ACCESS, [ctx.getHandler(), ctx.getClass()]))) return true;
    const organizationId =
      req.principal?.organizationId ?? req.integration?.organizationId ?? req.mcp?.organizationId;
    if (!organizationId) return true;
    const release = await this.gate.acquire(organizationId);
    ctx.switchToHttp().getResponse<Response>().once('close', release);
    return true;
  }
}
