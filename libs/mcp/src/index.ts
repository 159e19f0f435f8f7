export { McpModule } from './mcp.module';
export { MCP_TOOLS } from './tools/registry';
export type { McpTool, ToolCall, V1Route } from './tools/tool';
