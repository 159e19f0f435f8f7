import { Body, Controller, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Request, Response } from 'express';
import { ApiKeyPrincipal, CurrentMcpPrincipal, McpRoute } from '@app/platform';
import { McpServers } from '../application/mcp-servers';
import { JsonRpcRequestView, JsonRpcResponseView } from '../views/json-rpc.view';

/** `POST /mcp`: MCP over Streamable HTTP, stateless, JSON answers (issue 19 item 6). */
@ApiTags('MCP')
@Controller('mcp')
export class McpController {
  constructor(private readonly servers: McpServers) {}

  @Post()
  @ApiOperation({
    summary: 'MCP server (Streamable HTTP, stateless, JSON answers)',
    description:
      'The Model Context Protocol over HTTP: send JSON-RPC messages (`initialize`, `tools/list`, `tools/call`) ' +
      'with `Accept: application/json, text/event-stream`; no session id. Every answer inside the protocol is ' +
      'JSON-RPC: a refused tool call is a result with `isError: true` and `structuredContent.error {code, message}` ' +
      'carrying the `/v1` code; over 120 tool calls a minute per key is such a result with RATE_LIMITED. ' +
      'GET and DELETE answer 405 METHOD_NOT_ALLOWED. A request whose `Origin` is not in MCP_ALLOWED_ORIGINS is ' +
      '403 FORBIDDEN. The tools are listed by `tools/list` (README "MCP").',
  })
  @McpRoute()
  @ApiBody({ type: JsonRpcRequestView })
  @ApiOkResponse({
    type: JsonRpcResponseView,
    description: 'The JSON-RPC answer (202 with no body for a notification).',
  })
  async handle(
    @CurrentMcpPrincipal() principal: ApiKeyPrincipal,
    @Body() message: unknown,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const server = this.servers.create(principal);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, message);
  }
}
