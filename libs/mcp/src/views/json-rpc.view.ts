import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** What `POST /mcp` takes: one JSON-RPC 2.0 message of MCP (or a batch of them). */
export class JsonRpcRequestView {
  @ApiProperty({ enum: ['2.0'] }) jsonrpc: '2.0';
  @ApiPropertyOptional({
    oneOf: [{ type: 'string' }, { type: 'integer' }],
    description: 'Absent on a notification.',
  })
  id?: string | number;
  @ApiProperty({ example: 'tools/call', description: '`initialize`, `tools/list`, `tools/call`, …' })
  method: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { name: 'get_me', arguments: {} },
  })
  params?: Record<string, unknown>;
}

class JsonRpcErrorView {
  @ApiProperty({ type: 'integer' }) code: number;
  @ApiProperty() message: string;
}

/** Its answer: a JSON-RPC 2.0 result or error (a tool refusal is a result with `isError: true`). */
export class JsonRpcResponseView {
  @ApiProperty({ enum: ['2.0'] }) jsonrpc: '2.0';
  @ApiProperty({ oneOf: [{ type: 'string' }, { type: 'integer' }] }) id: string | number;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) result?: Record<string, unknown>;
  @ApiPropertyOptional({ type: JsonRpcErrorView }) error?: JsonRpcErrorView;
}
