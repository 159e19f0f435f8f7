import type { Server } from 'node:http';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Express } from 'express';
import { MikroORM } from '@mikro-orm/core';
import { AppConfig } from '../config/app-config';
import { shedWhenPoolSaturated } from '../db/load-shedding';
import { HttpDrain } from '../lifecycle/http-drain';
import { Metrics } from '../metrics/metrics';
import { countRequests, METRICS_PATH, metricsHandler } from '../metrics/metrics-http';
import { bodyDepthLimit, jsonBodiesOnly, undecodableBody } from './body-rules';
import { serveOpenApi } from './openapi';
import { requestId } from './request-id.middleware';
import { securityHeaders } from './security-headers';

export const BODY_LIMIT = '5mb';

/**
 * An idle keep-alive connection is kept this long: longer than clients and load balancers keep
 * theirs (60 s is common), so the server is never the one closing a connection a client is about
 * to send on (a reset the client sees; Node's default is 5 s). Docs: docs/reliability.md, "Soak".
 */
export const KEEP_ALIVE_MS = 65_000;

/**
 * Steps 1-2 of the pipeline, shared by main.ts and the tests: the drain's count of requests in
 * flight (from their headers on, see `HttpDrain`), request id and the security headers (so even a
 * 413 carries them), load shedding while the database pool is saturated, then the JSON-only rule,
 * then the one body parser with the 5 MB limit, then the nesting limit.
 * Create the app with `{ bodyParser: false, rawBody: true }` (idempotency reads the raw bytes).
 * Signals are main.ts's (`stopOnSignals`), not Nest's shutdown hooks.
 */
export function configureHttpApp(app: NestExpressApplication): NestExpressApplication {
  app.disable('x-powered-by');
  app.set('etag', false);
  const config = app.get(AppConfig, { strict: false });
  // behind N proxies the client IP is N hops back in X-Forwarded-For (the per-IP limits read req.ip)
  if (config.trustProxyHops > 0) app.set('trust proxy', config.trustProxyHops);
  const server = app.getHttpServer() as Server;
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  // headers must be allowed to take longer than an idle connection lasts (Node's own rule)
  server.headersTimeout = Math.max(server.headersTimeout, KEEP_ALIVE_MS + 1_000);
  const drain = HttpDrain.of(app);
  drain.watch(server);
  app.use(drain.track);
  app.use(requestId);
  app.use(securityHeaders);
  app.use(shedWhenPoolSaturated(app.get(MikroORM, { strict: false }), config.databasePoolSize));
  const metrics = app.get(Metrics, { strict: false });
  if (metrics.served) app.use(countRequests(metrics));
  // on the API port only when asked and no METRICS_PORT; else unknown, so 404 in the envelope
  if (config.metricsEnabled && config.metricsPort === null) {
    (app.getHttpAdapter().getInstance() as Express).get(METRICS_PATH, metricsHandler(metrics));
  }
  app.use(jsonBodiesOnly);
  // any JSON value is read; the validation pipe refuses what is no object where a route wants one
  // (400 BAD_REQUEST), so a route may take `null` as its whole body (`NullableBody`)
  app.useBodyParser('json', { limit: BODY_LIMIT, type: 'application/json', strict: false });
  app.use(undecodableBody);
  app.use(bodyDepthLimit);
  serveOpenApi(app);
  return app;
}
