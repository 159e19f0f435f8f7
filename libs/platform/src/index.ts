// What the platform gives a context and the apps (libs/platform/README.md); nothing else leaves it.

// configuration, logging, time
export * from './config/app-config';
export * from './config/config.module';
export * from './config/logging.module';
export { Clock, ManualClock, MINUTE, HOUR, DAY } from './clock/clock';

// persistence
export { DatabaseModule, DatabaseMigrations } from './db/database.module';
export { ormOptions, REQUEST_WAITS } from './db/orm-options';
export type { DatabaseWaits } from './db/orm-options';
export { SHED_STALL_MS } from './db/load-shedding';
export * from './db/tenant.repository';
export * from './db/prepared-statements';
export * from './db/transaction-settings';
export * from './db/maintenance';
export * from './db/embedded-postgres';

// the event outbox: catalogued changes recorded in their own transaction (issue 19)
export * from './events/outbox';
export * from './events/changes';

// errors and the envelope
export * from './errors/domain-error';
export { isDependencyUnavailable } from './errors/unavailable';
export type { ErrorCode, ValidationIssue } from './errors/error-codes';
export * from './http/api-errors.decorators';
export { LegacyErrorView } from './errors/error-envelope.view';

// access: decorators, principals, the identity context's ports
export * from './auth/access.decorators';
export * from './auth/authenticators';
export {
  API_KEY_PATTERN,
  INTEGRATION_KEY_PATTERN,
  MCP_KEY_PATTERN,
  SESSION_TOKEN_PREFIX,
} from './auth/credentials';
export * from './auth/principal';
export * from './auth/scope-grants';
export * from './auth/secrets';

// the HTTP pipeline and its building blocks
export { configureHttpApp } from './http/http-app';
export { HTTP_PLATFORM_PROVIDERS } from './http/http-platform';
export { HealthController } from './health/health.controller';
export { HealthModule } from './health/health.module';
export { ReadinessChecks } from './health/readiness';
export { RateLimitModule } from './http/rate-limit/rate-limit.module';
export { REDIS_COMMAND_TIMEOUT_MS } from './http/rate-limit/rate-limit.store';
export { SharedRateLimit, SHARED_LIMITS, type SharedLimitName } from './http/rate-limit/shared-rate-limit';
export { PublicPageRateLimit, PUBLIC_PAGE_LIMIT } from './http/rate-limit/public-page-rate-limit';
export {
  PublicRouteRateLimit,
  type CallWindow,
  type PublicRouteLimit,
} from './http/rate-limit/public-route-rate-limit';
export {
  AttemptLimits,
  rateLimited,
  type AttemptWindow,
  type TakenAttempt,
} from './http/rate-limit/attempt-limits';
export { ClientOrigin, limitedAddressOf } from './http/rate-limit/client-origin';
export {
  escapeHtml,
  htmlPage,
  HTML_CONTENT_TYPE,
  PublicPage,
  PublicPageErrorFilter,
  PUBLIC_PAGE_HEADERS,
} from './http/public-page';
export { Idempotent, type IdempotencyOptions } from './http/idempotency/idempotency.interceptor';
export { IdempotencyStore } from './http/idempotency/idempotency.store';
export { IdempotencyModule } from './http/idempotency/idempotency.module';
export * from './http/params';
export * from './http/paging';
export * from './http/paging.dto';
export * from './http/validation.decorators';
export { NullableBody, RequestValidationPipe } from './http/validation.pipe';
export { MultipartUpload, type MultipartUploadOptions } from './http/multipart';

// requests the server makes (webhooks, feeds, portals): one guard against reaching inside
export { isLocalName, isPrivateAddress, legacyIpv4 } from './http/outbound/address-rules';
export {
  MAX_REDIRECTS,
  OutboundError,
  OutboundHttp,
  type OutboundAnswer,
  type OutboundFailure,
  type OutboundOptions,
  type OutboundRefusal,
} from './http/outbound/outbound-http';
export {
  OutboundConnector,
  OutboundResolver,
  type ConnectTarget,
  type ResolvedAddress,
} from './http/outbound/outbound-ports';
export { OutboundModule } from './http/outbound/outbound.module';

// uploaded bytes: BlobStorage (disk under .data/blobs)
export { BlobStorage } from './blobs/blob-storage';
export { DiskBlobStorage } from './blobs/disk-blob-storage';
export { BlobsModule } from './blobs/blobs.module';

// uploaded images: type by bytes, header and pixel limit, clean re-encodes and variants (sharp)
export * from './images/image-types';
export * from './images/image-processing';

// lifecycle: a graceful stop on SIGTERM/SIGINT
export { BufferedWrites, WriteBuffer, type WriteBufferOptions } from './db/buffered-writes';
export { DRAIN_ACCEPT_MS, HttpDrain, type DrainReport } from './lifecycle/http-drain';
export * from './lifecycle/graceful-shutdown';

// errors in logs: class, SQLSTATE, statement shape; never a value
export { loggableError, type LoggableError } from './errors/loggable-error';

// metrics
export { Metrics } from './metrics/metrics';
export { MetricsModule } from './metrics/metrics.module';

// jobs
export * from './jobs/periodic';
export {
  DelayedJobs,
  delayUntil,
  queueJobId,
  DELAYED_JOB_OPTIONS,
  DELAYED_JOB_READY_WAIT_MS,
} from './jobs/delayed-jobs';
export * from './jobs/in-process-jobs';
export * from './jobs/bullmq-jobs.module';
