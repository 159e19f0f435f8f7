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
  @Matches(/^\s*https?:\/\/[^\s/,]+(\s*,\s*https?:\/\/[^\s/,]+)*\s*$/, {
    message: 'must be a comma-separated list of origins (scheme://host[:port])',
  })
  MCP_ALLOWED_ORIGINS?: string;

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

  @IsOptional()
  @Matches(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { message: 'must be an S3 bucket name' })
  MEDIA_S3_BUCKET?: string;

  @IsOptional()
  @Matches(/^[a-z0-9-]{2,40}$/, { message: 'must be a region name such as eu-west-1' })
  MEDIA_S3_REGION?: string;

  @IsOptional()
  @Matches(/^https?:\/\/[^\s/]+\/?$/, { message: 'must be an http(s) URL without a path' })
  MEDIA_S3_ENDPOINT?: string;

  @IsOptional()
  @IsString()
  MEDIA_S3_ACCESS_KEY_ID?: string;

  @IsOptional()
  @IsString()
  MEDIA_S3_SECRET_ACCESS_KEY?: string;

  @IsOptional()
  @Transform(toBoolean)
  @IsIn([true, false], { message: 'must be true or false' })
  WEBHOOK_ALLOW_INSECURE?: boolean;

  @IsOptional()
  @Transform(toBoolean)
  @IsIn([true, false], { message: 'must be true or false' })
  OUTBOUND_ALLOW_PRIVATE?: boolean;

  /** The former name of OUTBOUND_ALLOW_PRIVATE, still read when that is unset. */
  @IsOptional()
  @Transform(toBoolean)
  @IsIn([true, false], { message: 'must be true or false' })
  WEBHOOK_ALLOW_PRIVATE?: boolean;
}

export class ConfigError extends Error {}

/**
 * Uploaded bytes in an S3 bucket instead of on disk (`MEDIA_S3_*`). `endpoint`: an S3-compatible
 * service (MinIO, R2, …), addressed path-style; null = AWS. No keys: the SDK's default chain
 * (environment, instance role).
 */
export interface MediaS3Config {
  bucket: string;
  region: string;
  endpoint: string | null;
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
}

/** `MEDIA_S3_*` as a whole: null when none is set; a half configuration is a ConfigError. */
function mediaS3Of(env: Env): MediaS3Config | null {
  const { MEDIA_S3_BUCKET: bucket, MEDIA_S3_REGION: region, MEDIA_S3_ENDPOINT: endpoint } = env;
  const { MEDIA_S3_ACCESS_KEY_ID: accessKeyId, MEDIA_S3_SECRET_ACCESS_KEY: secretAccessKey } = env;
  const others = Object.entries({
    MEDIA_S3_REGION: region,
    MEDIA_S3_ENDPOINT: endpoint,
    MEDIA_S3_ACCESS_KEY_ID: accessKeyId,
    MEDIA_S3_SECRET_ACCESS_KEY: secretAccessKey,
  }).filter(([, value]) => value !== undefined);
  if (bucket === undefined) {
    if (others.length === 0) return null;
    throw new ConfigError(
      `Invalid configuration: MEDIA_S3_BUCKET is required with ${others.map(([name]) => name).join(', ')}.`,
    );
  }
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    throw new ConfigError(
      'Invalid configuration: MEDIA_S3_ACCESS_KEY_ID and MEDIA_S3_SECRET_ACCESS_KEY go together.',
    );
  }
  if (region === undefined && endpoint === undefined) {
    throw new ConfigError('Invalid configuration: MEDIA_S3_REGION is required with MEDIA_S3_BUCKET.');
  }
  return {
    bucket,
    region: region ?? 'us-east-1',
    endpoint: endpoint?.replace(/\/+$/, '') ?? null,
    credentials:
      accessKeyId !== undefined && secretAccessKey !== undefined ? { accessKeyId, secretAccessKey } : null,
  };
}

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
  /** Uploaded bytes in S3 (`MEDIA_S3_*`); null = on disk next to the embedded database. */
  readonly mediaS3: MediaS3Config | null;
  /**
   * `POST /mcp`: the browser origins allowed to call it (`MCP_ALLOWED_ORIGINS`, comma-separated); a
   * request with any other `Origin` is 403 (DNS-rebinding guard). Empty: only calls without `Origin`.
   */
  readonly mcpAllowedOrigins: string[];
  /** Webhook URLs may be `http://` to localhost (development, tests). */
  readonly webhookAllowInsecure: boolean;
  /** Outbound requests (webhooks, feeds) may go to private, loopback or link-local addresses (tests only). */
  readonly outboundAllowPrivate: boolean;
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
      mediaS3: mediaS3Of(parsed),
      mcpAllowedOrigins: (parsed.MCP_ALLOWED_ORIGINS ?? '')
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
      webhookAllowInsecure: parsed.WEBHOOK_ALLOW_INSECURE ?? false,
      outboundAllowPrivate: parsed.OUTBOUND_ALLOW_PRIVATE ?? parsed.WEBHOOK_ALLOW_PRIVATE ?? false,
    });
  }
}
