import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
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

/** One line when the API starts (what it runs on, never a secret) and one when it stops. */
@Injectable()
export class LifecycleLog implements BeforeApplicationShutdown, OnApplicationShutdown {
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

  beforeApplicationShutdown(signal?: string): void {
    this.log.log({ signal }, 'API stopping');
  }

  onApplicationShutdown(signal?: string): void {
    this.log.log({ signal }, 'API stopped');
  }
}
