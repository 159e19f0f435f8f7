/**
 * The platform's pure half: what domain code (aggregates, rules, repositories) may import, as
 * `@app/platform/core`. No Nest, no HTTP pipeline, no configuration (checked by `npm run lint`).
 */
export { Clock, ManualClock, MINUTE, HOUR, DAY } from './clock/clock';
export * from './clock/zoned-time';
export * from './db/tenant.repository';
export * from './db/prepared-statements';
export * from './db/transaction-settings';
export * from './errors/domain-error';
export { isDependencyUnavailable } from './errors/unavailable';
export type { ErrorCode, ValidationIssue } from './errors/error-codes';
export * from './auth/principal';
export * from './auth/scope-grants';
export * from './auth/secrets';
export * from './images/image-types';
