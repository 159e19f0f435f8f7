/**
 * The platform's pure half: what domain code (aggregates, rules, repositories) may import, as
 * `@app/platform/core`. No Nest, no HTTP pipeline, no configuration (checked by `npm run lint`).
 */
export * from './db/clock';
export * from './db/tenant.repository';
export * from './http/domain-error';
export * from './http/error-codes';
export * from './auth/principal';
export * from './auth/secrets';
