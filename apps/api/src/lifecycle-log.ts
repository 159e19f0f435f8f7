import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '@app/platform';

/** The project's version, from the package.json above this file (source or dist alike). */
export function apiVersion(from: string = __dirname): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === 'estate-agency-api') return pkg.version ?? 'unknown';
  }
  return 'unknown';
}

/**
 * One line when the API starts (what it runs on, never a secret), one at the stop signal (the
 * requests in flight) and one when it has stopped (how long the drain took).
 */
@Injectable()
export class LifecycleLog {
  private readonly log = new Logger('API');

  constructor(private readonly config: AppConfig) {}

  started(): void {
    const database = this.config.databaseUrl ? new URL(this.config.databaseUrl) : null;
    this.log.log(
      {
        port: this.config.port,
        version: apiVersion(),
        database: database
          ? {
              kind: 'url',
              host: database.hostname,
              port: database.port || '5432',
              name: database.pathname.slice(1),
            }
          : { kind: 'embedded', port: this.config.embeddedPort },
        redis: this.config.redisUrl ? 'on' : 'off',
        metrics: this.config.metricsPort
          ? `port ${this.config.metricsPort}`
          : this.config.metricsEnabled
            ? 'on'
            : 'off',
        node: process.version,
      },
      `API listening on http://localhost:${this.config.port} (docs: /docs)`,
    );
  }

  stopping(signal: string, inFlight: number): void {
    this.log.log({ signal, inFlight }, 'API stopping');
  }

  /** `inFlight`, `answered` (since the signal) and `cut` come from the HTTP drain. */
  stopped(report: { signal: string; durationMs: number } & Record<string, unknown>): void {
    this.log.log(report, 'API stopped');
  }
}
