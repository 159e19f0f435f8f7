import { plainToInstance, Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, validateSync } from 'class-validator';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const toBoolean = ({ value }: { value: unknown }) =>
  value === undefined || value === ''
    ? undefined
    : value === 'true' || value === '1'
      ? true
      : value === 'false' || value === '0'
        ? false
        : value;

/** The environment as read at boot. No `process.env` outside this folder. */
class Env {
  @IsOptional()
  @Transform(({ value }) => (value === undefined || value === '' ? undefined : Number(value)))
  @IsInt({ message: 'must be a whole number' })
  @Min(1, { message: 'must be between 1 and 65535' })
  @Max(65535, { message: 'must be between 1 and 65535' })
  PORT?: number;

  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'must be a postgres:// URL' })
  DATABASE_URL?: string;

  @IsOptional()
  @Transform(({ value }) => (value === undefined || value === '' ? undefined : Number(value)))
  @IsInt({ message: 'must be a whole number' })
  @Min(1, { message: 'must be between 1 and 100' })
  @Max(100, { message: 'must be between 1 and 100' })
  DATABASE_POOL_SIZE?: number;

  @IsOptional()
  @Matches(/^rediss?:\/\/\S+$/, { message: 'must be a redis:// URL' })
  REDIS_URL?: string;

  @IsOptional()
  @Matches(/^https?:\/\/[^\s/]+(\/\S*)?$/, { message: 'must be an http(s) URL' })
  PUBLIC_BASE_URL?: string;

  @IsOptional()
  @IsIn(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL?: LogLevel;

  @IsOptional()
  @Transform(toBoolean)
  @IsIn([true, false], { message: 'must be true or false' })
  MIGRATE_ON_START?: boolean;

  @IsOptional()
  @Transform(toBoolean)
  @IsIn([true, false], { message: 'must be true or false' })
  METRICS_ENABLED?: boolean;

  @IsOptional()
  @Transform(({ value }) => (value === undefined || value === '' ? undefined : Number(value)))
  @IsInt({ message: 'must be a whole number' })
  @Min(1, { message: 'must be between 1 and 65535' })
  @Max(65535, { message: 'must be between 1 and 65535' })
  METRICS_PORT?: number;

  @IsOptional()
  @Transform(({ value }) => (value === undefined || value === '' ? undefined : Number(value)))
  @IsInt({ message: 'must be a whole number' })
  @Min(0, { message: 'must be between 0 and 10' })
  @Max(10, { message: 'must be between 0 and 10' })
  TRUST_PROXY_HOPS?: number;

  @IsOptional()
  @IsString()
  EMBEDDED_DATA_DIR?: string;

  @IsOptional()
  @Transform(({ value }) => (value === undefined || value === '' ? undefined : Number(value)))
  @IsInt({ message: 'must be a whole number' })
  @Min(1024, { message: 'must be between 1024 and 65535' })
  @Max(65535, { message: 'must be between 1024 and 65535' })
  EMBEDDED_PG_PORT?: number;
}

export class ConfigError extends Error {}

/** Typed configuration, one instance per process; injected by class. */
export class AppConfig {
  readonly port: number;
  readonly databaseUrl: string | null;
  /** Connections this process keeps to PostgreSQL at most. */
  readonly databasePoolSize: number;
  readonly redisUrl: string | null;
  readonly publicBaseUrl: string;
  readonly logLevel: LogLevel;
  /** Apply pending migrations at start; always true on the embedded database. */
  readonly migrateOnStart: boolean;
  /** `GET /metrics` on `port`; ignored when `metricsPort` is set. */
  readonly metricsEnabled: boolean;
  /** `GET /metrics` on this port only (not on `port`). */
  readonly metricsPort: number | null;
  /**
   * Reverse proxies in front of the API (Express `trust proxy`): the client IP (the public pages'
   * per-IP limit) is read from `X-Forwarded-For` that many hops back; 0 = the socket's peer.
   */
  readonly trustProxyHops: number;
  readonly embeddedDataDir: string;
  readonly embeddedPort: number;
  readonly apiName = 'estate-agency-api';

  constructor(values: Omit<AppConfig, 'apiName'>) {
    Object.assign(this, values);
  }

  /** Reads and validates the environment; a bad value throws one line naming the variable(s). */
  static fromEnv(env: NodeJS.ProcessEnv = process.env): AppConfig {
    const raw = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
    const parsed = plainToInstance(Env, raw);
    const errors = validateSync(parsed, { skipMissingProperties: false });
    if (errors.length > 0) {
      const parts = errors.map(
        (e) => `${e.property} ${Object.values(e.constraints ?? {})[0] ?? 'is invalid'}`,
      );
      throw new ConfigError(`Invalid configuration: ${parts.join('; ')}.`);
    }
    const port = parsed.PORT ?? 3000;
    return new AppConfig({
      port,
      databaseUrl: parsed.DATABASE_URL ?? null,
      databasePoolSize: parsed.DATABASE_POOL_SIZE ?? 10,
      redisUrl: parsed.REDIS_URL ?? null,
      publicBaseUrl: (parsed.PUBLIC_BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
      logLevel: parsed.LOG_LEVEL ?? 'info',
      migrateOnStart: parsed.MIGRATE_ON_START ?? false,
      metricsEnabled: parsed.METRICS_ENABLED ?? false,
      metricsPort: parsed.METRICS_PORT ?? null,
      trustProxyHops: parsed.TRUST_PROXY_HOPS ?? 0,
      embeddedDataDir: parsed.EMBEDDED_DATA_DIR ?? '.data/postgres',
      embeddedPort: parsed.EMBEDDED_PG_PORT ?? 54329,
    });
  }
}
