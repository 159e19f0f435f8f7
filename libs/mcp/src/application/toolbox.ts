import { Injectable, Logger, OnApplicationBootstrap, Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import {
  ApiKeyPrincipal,
  DomainError,
  isAdmin,
  isDependencyUnavailable,
  loggableError,
  validationFailed,
} from '@app/platform';
import { MCP_TOOLS } from '../tools/registry';
import type { McpTool } from '../tools/tool';
import { renderAnswer } from '../tools/untrusted';
import { RouteAccess, RouteGrant } from './route-access';
import { ToolRateLimit } from './tool-rate-limit';

type ToolError = { code: string; message: string; details?: Record<string, unknown> };

/** The `structuredContent` of a refusal. */
const REFUSAL = z.object({
  error: z.object({
    code: z.string().describe('The /v1 error code: API_KEY_SCOPE_MISSING, NOT_FOUND, VALIDATION_FAILED, …'),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});
const REFUSAL_SCHEMA = (() => {
  const { $schema: _, ...schema } = z.toJSONSchema(REFUSAL, { io: 'output' });
  return schema;
})();

/**
 * The published `outputSchema`: the route's answer, or a refusal. Clients check every
 * `structuredContent` against it, refusals included (the SDK's client does), so a refusal's
 * `{error}` must match too.
 */
function outputSchemaOf(tool: McpTool): Tool['outputSchema'] {
  const { $schema, ...answer } = z.toJSONSchema(tool.output, { io: 'output' });
  return { $schema, type: 'object', anyOf: [answer, REFUSAL_SCHEMA] } as Tool['outputSchema'];
}

const refusal = (error: ToolError): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: `${error.code}: ${error.message}` }],
  structuredContent: { error },
});

/** The scope, role and plan checks of the tool's `/v1` route, in the guards' order. */
function grantRefusal(grant: RouteGrant, principal: ApiKeyPrincipal): DomainError | null {
  const missing = grant.scopes.filter((scope) => !principal.scopes.includes(scope));
  if (missing.length > 0) {
    return new DomainError('API_KEY_SCOPE_MISSING', 'The key lacks a scope this operation needs.', {
      missing,
    });
  }
  if (grant.adminOnly && !isAdmin(principal)) {
    return new DomainError('ORG_ADMIN_REQUIRED', 'Only an organization admin can do this.');
  }
  if (grant.plan && !principal.planActive)
    return new DomainError('SUBSCRIPTION_REQUIRED', 'This needs an active plan.');
  return null;
}

const issuesOf = (error: z.ZodError) =>
  error.issues.map((issue) => ({
    path: issue.path.join('.'),
    message: issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
  }));

/**
 * The tools of `POST /mcp` (the registry), their JSON Schemas for `tools/list`, and one tool call:
 * input checked against its zod schema (400-style VALIDATION_FAILED), the mirrored route's
 * grants, the per-key rate limit, then `run`; the answer as `structuredContent` and as text with
 * customer-written strings wrapped.
 */
@Injectable()
export class Toolbox implements OnApplicationBootstrap {
  private readonly log = new Logger('McpToolbox');
  private readonly tools = new Map<string, { tool: McpTool; grant: RouteGrant }>();
  private listing: Tool[] = [];

  constructor(
    private readonly routes: RouteAccess,
    private readonly moduleRef: ModuleRef,
    private readonly limit: ToolRateLimit,
  ) {}

  /** Every tool's route is resolved at boot: a tool mirroring no route stops the start. */
  onApplicationBootstrap(): void {
    for (const tool of MCP_TOOLS) {
      if (this.tools.has(tool.name)) throw new Error(`MCP tool ${tool.name} is registered twice`);
      this.tools.set(tool.name, { tool, grant: this.routes.grantOf(tool.route) });
    }
    this.listing = MCP_TOOLS.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: `${tool.description} Mirrors \`${tool.route}\`.`,
      inputSchema: z.toJSONSchema(tool.input, { io: 'input' }) as Tool['inputSchema'],
      outputSchema: outputSchemaOf(tool),
      annotations: { title: tool.title, openWorldHint: false, ...tool.annotations },
    }));
  }

  list(): Tool[] {
    return this.listing;
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  async call(principal: ApiKeyPrincipal, name: string, args: unknown): Promise<CallToolResult> {
    const entry = this.tools.get(name);
    if (!entry) return refusal({ code: 'NOT_FOUND', message: `Tool ${name} not found.` });
    const { tool, grant } = entry;
    try {
      const denied = grantRefusal(grant, principal);
      if (denied) throw denied;
      const retryAfterSeconds = await this.limit.take(principal.keyId);
      if (retryAfterSeconds !== null) {
        throw new DomainError('RATE_LIMITED', 'Too many tool calls for this key; wait and retry.', {
          retryAfterSeconds,
        });
      }
      const parsed = tool.input.safeParse(args ?? {});
      if (!parsed.success) throw validationFailed(issuesOf(parsed.error));
      const answer = await tool.run({
        principal,
        input: parsed.data,
        get: <T>(type: Type<T>) => this.moduleRef.get(type, { strict: false }),
      });
      const structured = answer as Record<string, unknown>;
      return {
        content: [{ type: 'text', text: renderAnswer(structured, tool.untrusted?.(answer) ?? []) }],
        structuredContent: structured,
      };
    } catch (err) {
      if (err instanceof DomainError) {
        return refusal({
          code: err.code,
          message: err.message,
          ...(err.details ? { details: err.details } : {}),
        });
      }
      if (isDependencyUnavailable(err)) {
        return refusal({ code: 'INTERNAL', message: 'A dependency did not answer; retry shortly.' });
      }
      this.log.error({ err: loggableError(err), tool: name }, 'MCP tool failed');
      return refusal({ code: 'INTERNAL', message: 'Something went wrong.' });
    }
  }
}
