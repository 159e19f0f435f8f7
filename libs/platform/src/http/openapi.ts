import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

/** The OpenAPI document, generated from the controllers and DTOs. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Real-estate agency API')
    .setDescription(
      'CRM, listings, brochures, documents and network for real-estate agencies. `/v1` routes take an API key ' +
        '(`Authorization: Bearer svc_pk_…`, `Authorization: ApiKey …` or `X-API-Key`); dashboard routes and ' +
        '`/api-keys` take a session token. Every operation names its scopes in `x-required-scopes`.',
    )
    .setVersion('1')
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'API key: svc_pk_ + 32 letters and digits' },
      'apiKey',
    )
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'Session token from /auth/sign-in' },
      'session',
    )
    .build();
  return SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
  });
}

/** `/v1/openapi.json` and Swagger UI at `/docs`. */
export function serveOpenApi(app: INestApplication): void {
  const document = buildOpenApiDocument(app);
  const http = app.getHttpAdapter();
  http.get('/v1/openapi.json', (_req: unknown, res: { json(body: unknown): void }) => res.json(document));
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: '/v1/openapi.json', raw: false });
}
