import { LEAD_TOOLS } from './leads.tools';
import { ME_TOOLS } from './me.tools';
import type { McpTool } from './tool';

/**
 * Every tool of `POST /mcp`, by group (one `<group>.tools.ts` each). Add a group with one line.
 * Nothing else is a tool: no deletes, assignments, sharing or key actions (INTERFACES.md).
 */
export const MCP_TOOLS: readonly McpTool[] = [...ME_TOOLS, ...LEAD_TOOLS];
