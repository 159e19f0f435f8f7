import { createServer, type Server } from 'node:http';
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { AppConfig } from '../config/app-config';
import { Metrics } from './metrics';

export const METRICS_PATH = '/metrics';

/** The route template Express matched (`/v1/leads/:leadId`); unmatched paths share one label. */
export const routeTemplate = (req: Request): string =>
  (req.route as { path?: string } | undefined)?.path ?? 'unmatched';

/** Installed only when metrics are served: one histogram observation per answer. */
export function countRequests(metrics: Metrics) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const start = process.hrtime.bigint();
    res.once('finish', () => {
      metrics.httpDuration.observe(
        {
          method: req.method,
          route: routeTemplate(req),
          status_class: `${Math.floor(res.statusCode / 100)}xx`,
        },
        Number(process.hrtime.bigint() - start) / 1e9,
      );
    });
    next();
  };
}

/** `GET /metrics`: the Prometheus text format; no credential, like a scrape target expects. */
export function metricsHandler(metrics: Metrics) {
  return (_req: Request, res: Response, next: NextFunction): void => {
    metrics
      .scrape()
      .then((text) => {
        res.writeHead(200, { 'Content-Type': metrics.contentType }).end(text);
      })
      .catch(next);
  };
}

/** With METRICS_PORT: `/metrics` on a port of its own (and nowhere on the API port). */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private server?: Server;

  constructor(
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const port = this.config.metricsPort;
    if (port === null) return;
    const server = createServer((req, res) => {
      if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== METRICS_PATH) {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found\n');
        return;
      }
      this.metrics
        .scrape()
        .then((text) => res.writeHead(200, { 'Content-Type': this.metrics.contentType }).end(text))
        .catch(() => res.writeHead(500, { 'Content-Type': 'text/plain' }).end('Metrics unavailable\n'));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, () => resolve());
    });
    this.server = server;
    new Logger('Metrics').log(`metrics on http://localhost:${port}${METRICS_PATH}`);
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
