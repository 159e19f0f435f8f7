import type { Type } from '@nestjs/common';
import type { z } from 'zod';
import type { ApiKeyPrincipal } from '@app/platform';
import type { UntrustedText } from './untrusted';

/**
 * A `/v1` route as its OpenAPI path names it: `GET /v1/leads/{leadId}`; or a route of the
 * listing family (`POST /properties/search`, `GET /properties/{id}`), the API-key routes property
 * search and listing reads have (no `/v1` twin).
 */
export type V1Route =
  `${'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'} /v1/${string}` | `${'GET' | 'POST'} /properties/${string}`;

/** What a tool's `run` gets besides its input. */
export interface ToolCall<I> {
  /** The MCP key's person: role, plan and scopes as the door read them for this call. */
  principal: ApiKeyPrincipal;
  input: I;
  /** An application service (any context's exported provider), resolved from the app. */
  get<T>(type: Type<T>): T;
}

/**
 * One MCP tool (issue 19 item 7). It mirrors one `/v1` route: the framework reads that route's
 * declarations at boot (`@RequireScopes`, `@AdminOnly`, `@RequiresPlan`) and checks them on every
 * call exactly as the route's guards do; inputs are named as the route's parameters; `run` calls the
 * application services directly and returns the route's answer, which becomes `structuredContent`
 * (checked against `output`) and, as JSON with customer-written texts wrapped, the text content.
 * A `DomainError` thrown by `run` is a tool error `{error: {code, message, details?}}` with the
 * `/v1` code.
 */
export interface McpTool<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  route: V1Route;
  input: I;
  output: O;
  /** Reads: `readOnlyHint: true`. The four writes: `readOnlyHint: false, destructiveHint: false`. */
  annotations:
    { readOnlyHint: true } | { readOnlyHint: false; destructiveHint: false; idempotentHint?: boolean };
  run(call: ToolCall<z.infer<I>>): Promise<z.infer<O>>;
  /** Customer-written strings of the answer (message bodies, transcripts…), wrapped in the text content. */
  untrusted?(answer: z.infer<O>): UntrustedText[];
}

/** Types a tool's `run` and `untrusted` from its schemas. */
export const defineTool = <I extends z.ZodObject, O extends z.ZodObject>(tool: McpTool<I, O>): McpTool =>
  tool as unknown as McpTool;
