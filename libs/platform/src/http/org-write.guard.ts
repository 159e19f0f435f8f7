import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AuthedRequest } from '../auth/access.decorators';
import { AppConfig } from '../config/app-config';
import { orgWritePermits, OrgWriteGate } from '../db/org-write-gate';
import { REQUEST_WAITS } from '../db/orm-options';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The pipeline's last step: a write by an agency's key, session, integration or MCP key takes one
 * of its organization's permits (`OrgWriteGate`) before it touches the pool, and gives it back
 * when its answer is sent or the connection closes. Reads and anonymous routes pass untouched.
 */
@Injectable()
export class OrgWriteGuard implements CanActivate {
  readonly gate: OrgWriteGate;

  constructor(config: AppConfig) {
    this.gate = new OrgWriteGate(orgWritePermits(config.databasePoolSize), REQUEST_WAITS.acquireMs);
  }

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const req = ctx.switchToHttp().getRequest<Request & AuthedRequest>();
    if (READS.has(req.method)) return true;
    const organizationId =
      req.principal?.organizationId ?? req.integration?.organizationId ?? req.mcp?.organizationId;
    if (!organizationId) return true;
    const release = await this.gate.acquire(organizationId);
    ctx.switchToHttp().getResponse<Response>().once('close', release);
    return true;
  }
}
