import { BROCHURE_TOOLS } from './brochures.tools';
import { CALENDAR_TOOLS } from './calendar.tools';
import { DEAL_TOOLS } from './deals.tools';
import { DOCUMENT_TOOLS } from './documents.tools';
import { LEAD_TOOLS } from './leads.tools';
import { LISTING_TOOLS } from './listings.tools';
import { ME_TOOLS } from './me.tools';
import { NETWORK_TOOLS } from './network.tools';
import { NOTE_TASK_TOOLS } from './notes-tasks.tools';
import { QUEUE_TOOLS } from './queues.tools';
import { RECORD_TOOLS } from './records.tools';
import { SEARCH_TOOLS } from './search.tools';
import type { McpTool } from './tool';

/**
 * Every tool of `POST /mcp`, by group (one `<group>.tools.ts` each). Add a group with one line.
 * Nothing else is a tool: no deletes, assignments, sharing or key actions (INTERFACES.md).
 */
export const MCP_TOOLS: readonly McpTool[] = [
  ...ME_TOOLS,
  ...LEAD_TOOLS,
  ...NOTE_TASK_TOOLS,
  ...DEAL_TOOLS,
  ...RECORD_TOOLS,
  ...CALENDAR_TOOLS,
  ...QUEUE_TOOLS,
  ...SEARCH_TOOLS,
  ...LISTING_TOOLS,
  ...DOCUMENT_TOOLS,
  ...NETWORK_TOOLS,
  ...BROCHURE_TOOLS,
];
