import { BROCHURE_TOOLS } from './brochures.tools';
import { DOCUMENT_TOOLS } from './documents.tools';
import { LEAD_TOOLS } from './leads.tools';
import { LISTING_TOOLS } from './listings.tools';
import { ME_TOOLS } from './me.tools';
import { NETWORK_TOOLS } from './network.tools';
import { QUEUE_TOOLS } from './queues.tools';
import { SEARCH_TOOLS } from './search.tools';
import type { McpTool } from './tool';

/**
 * Every tool of `POST /mcp`, by group (one `<group>.tools.ts` each). Add a group with one line.
 * Nothing else is a tool: no deletes, assignments, sharing or key actions (INTERFACES.md).
 */
export const MCP_TOOLS: readonly McpTool[] = [
  ...ME_TOOLS,
  ...LEAD_TOOLS,
  ...QUEUE_TOOLS,
  ...SEARCH_TOOLS,
  ...LISTING_TOOLS,
  ...DOCUMENT_TOOLS,
  ...NETWORK_TOOLS,
  ...BROCHURE_TOOLS,
];
