import type { NestExpressApplication } from '@nestjs/platform-express';
import { bodyDepthLimit, jsonBodiesOnly } from './body-rules';
import { serveOpenApi } from './openapi';
import { requestId } from './request-id.middleware';

export const BODY_LIMIT = '5mb';

/**
 * Steps 1-2 of the pipeline, shared by main.ts and the tests: request id first (so even a 413
 * carries one), then the JSON-only rule, then the one body parser with the 5 MB limit, then the
 * nesting limit.
 * Create the app with `{ bodyParser: false, rawBody: true }` (idempotency reads the raw bytes).
 */
export function configureHttpApp(app: NestExpressApplication): NestExpressApplication {
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestId);
  app.use(jsonBodiesOnly);
  app.useBodyParser('json', { limit: BODY_LIMIT, type: 'application/json' });
  app.use(bodyDepthLimit);
  app.enableShutdownHooks();
  serveOpenApi(app);
  return app;
}
