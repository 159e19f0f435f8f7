import { MikroOrmModule } from '@mikro-orm/nestjs';
import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { McpKeyAuthenticator } from '@app/platform';
import { IdentityModule } from '@app/identity';
import { DbMcpKeyAuthenticator } from './application/mcp-key-authenticator';
import { McpKeysService } from './application/mcp-keys.service';
import { McpServers } from './application/mcp-servers';
import { RouteAccess } from './application/route-access';
import { SharedToolLimit } from './tools/shared-tool-limit';
import { ToolRateLimit } from './application/tool-rate-limit';
import { Toolbox } from './application/toolbox';
import { McpKey } from './domain/mcp-key.entity';
import { McpGate } from './http/mcp-gate.middleware';
import { McpKeysController } from './http/mcp-keys.controller';
import { McpController } from './http/mcp.controller';

/**
 * The MCP server (issue 19 items 6-8): `POST /mcp`, MCP keys on session routes, and the tools,
 * each mirroring a `/v1` route of another context (whose exported services it calls). Only the
 * API app imports it; no context imports mcp.
 */
@Module({
  // identity's key door opens MCP keys too
  imports: [MikroOrmModule.forFeature([McpKey]), IdentityModule],
  controllers: [McpController, McpKeysController],
  providers: [
    McpKeysService,
    { provide: McpKeyAuthenticator, useClass: DbMcpKeyAuthenticator },
    RouteAccess,
    ToolRateLimit,
    SharedToolLimit,
    Toolbox,
    McpServers,
  ],
  exports: [McpKeyAuthenticator],
})
export class McpModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(McpGate).forRoutes({ path: 'mcp', method: RequestMethod.ALL });
  }
}
