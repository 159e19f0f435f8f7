import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { AppConfig, DomainError } from '@app/platform';

const ALLOWED_HEADERS = 'Authorization, Content-Type, Accept, Mcp-Protocol-Version, Last-Event-ID';

/**
 * In front of `/mcp`, before the credential is looked at: an `Origin` that is not in
 * MCP_ALLOWED_ORIGINS is 403 (the DNS-rebinding guard of the MCP transport spec), and anything but
 * POST is 405 (stateless: no GET stream, no session to DELETE). Both in the envelope. A listed
 * origin gets CORS headers, and its preflight (`OPTIONS`) a 204.
 */
@Injectable()
export class McpGate implements NestMiddleware {
  constructor(private readonly config: AppConfig) {}

  use(req: Request, res: Response, next: NextFunction): void {
    const origin = req.headers.origin;
    if (origin !== undefined) {
      if (!this.config.mcpAllowedOrigins.includes(origin)) {
        throw new DomainError('FORBIDDEN', 'This origin may not call the MCP server.');
      }
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Vary', 'Origin');
      res.setHeader('Access-Control-Expose-Headers', 'X-Request-Id, WWW-Authenticate');
      if (req.method === 'OPTIONS') {
        res.setHeader('Access-Control-Allow-Methods', 'POST');
        res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
        res.setHeader('Access-Control-Max-Age', '600');
        res.status(204).end();
        return;
      }
    }
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      throw new DomainError('METHOD_NOT_ALLOWED', 'The MCP server takes POST only (stateless, no sessions).');
    }
    next();
  }
}
