import { CanActivate, ExecutionContext, Injectable, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { unauthenticated } from '../errors/domain-error';
import { ACCESS, AccessDeclaration, AuthedRequest } from './access.decorators';
import {
  ApiKeyAuthenticator,
  IntegrationKeyAuthenticator,
  McpKeyAuthenticator,
  SessionAuthenticator,
} from './authenticators';
import { Credential, extractCredential } from './credentials';
import { Principal } from './principal';

/**
 * Who is calling: the credential must be of the route family's kind (401 otherwise), then the
 * identity context's authenticator applies its rules (401, the key rules' 403s, 503). Puts the
 * principal on the request for the grant guards and the handler.
 */
@Injectable()
export class AuthenticationGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionAuthenticator,
    private readonly apiKeys: ApiKeyAuthenticator,
    private readonly integrationKeys: IntegrationKeyAuthenticator,
    @Optional() private readonly mcpKeys?: McpKeyAuthenticator,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const access = this.reflector.getAllAndOverride(ACCESS, [ctx.getHandler(), ctx.getClass()]);
    if (!access || access.kind === 'public') return true;
    const req = ctx.switchToHttp().getRequest<Request & AuthedRequest>();
    const credential = extractCredential(req.headers);
    if (!credential) throw unauthenticated('A credential is required.');
    if (access.kind === 'integration') {
      // an integration key opens /integrations/v1 only, and nothing else opens it
      if (credential.kind !== 'integration') throw unauthenticated('This route takes an integration key.');
      req.integration = await this.integrationKeys.authenticate(credential.secret);
      return true;
    }
    if (access.kind === 'mcp') {
      // an MCP key opens POST /mcp only (svc_oat_ tokens too are refused until OAuth is designed)
      if (credential.kind !== 'mcp' || !credential.secret.startsWith('svc_mcp_') || !this.mcpKeys)
        throw unauthenticated('This route takes an MCP key.');
      req.mcp = await this.mcpKeys.authenticate(credential.secret);
      return true;
    }
    req.principal = await this.authenticate(access, credential, req);
    return true;
  }

  private authenticate(
    access: Exclude<AccessDeclaration, { kind: 'integration' | 'mcp' | 'public' }>,
    credential: Credential,
    req: Request,
  ): Promise<Principal> {
    if (access.kind === 'session') {
      if (credential.kind !== 'session') throw unauthenticated('This route takes a session token.');
      return this.sessions.authenticate(credential.secret);
    }
    if (credential.kind !== 'apiKey') throw unauthenticated('This route takes an API key.');
    return this.apiKeys.authenticate(credential.secret, {
      family: access.family,
      origin: req.headers.origin,
      ip: req.ip,
      userAgent: req.headers['user-agent'],
    });
  }
}
