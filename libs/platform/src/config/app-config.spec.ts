import { AppConfig, ConfigError } from './app-config';

/** The ConfigError `fromEnv` throws for `env`; fails the test when it does not throw one. */
function configErrorFor(env: NodeJS.ProcessEnv): ConfigError {
  try {
    AppConfig.fromEnv(env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error(`no ConfigError for ${JSON.stringify(env)}`);
}

describe('AppConfig.fromEnv', () => {
  it('uses the documented defaults for an empty environment', () => {
    const config = AppConfig.fromEnv({});
    expect(config).toBeInstanceOf(AppConfig);
    expect({ ...config }).toEqual({
      port: 3000,
      databaseUrl: null,
      databasePoolSize: 10,
      redisUrl: null,
      publicBaseUrl: 'http://localhost:3000',
      logLevel: 'info',
      migrateOnStart: false,
      metricsEnabled: false,
      metricsPort: null,
      trustProxyHops: 0,
      embeddedDataDir: '.data/postgres',
      embeddedPort: 54329,
      mediaS3: null,
      mcpAllowedOrigins: [],
      webhookAllowInsecure: false,
      outboundAllowPrivate: false,
      apiName: 'estate-agency-api',
    });
  });

  it('treats empty values as unset', () => {
    const config = AppConfig.fromEnv({ PORT: '', DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: '' });
    expect(config).toMatchObject({ port: 3000, databaseUrl: null, redisUrl: null, logLevel: 'info' });
  });

  it('ignores variables it does not know', () => {
    expect(() => AppConfig.fromEnv({ PATH: '/usr/bin', HOME: '/root', NODE_ENV: 'test' })).not.toThrow();
  });

  it('reads every variable it knows', () => {
    const config = AppConfig.fromEnv({
      PORT: '8080',
      DATABASE_URL: 'postgres://app:pw@db:5432/estate',
      DATABASE_POOL_SIZE: '25',
      REDIS_URL: 'redis://cache:6379',
      PUBLIC_BASE_URL: 'https://api.agency.example/',
      LOG_LEVEL: 'warn',
      MIGRATE_ON_START: 'true',
      METRICS_ENABLED: 'true',
      METRICS_PORT: '9464',
      TRUST_PROXY_HOPS: '1',
      EMBEDDED_DATA_DIR: '/var/lib/estate',
      EMBEDDED_PG_PORT: '55000',
      MCP_ALLOWED_ORIGINS: 'https://claude.ai, http://localhost:6274',
      WEBHOOK_ALLOW_INSECURE: 'true',
      OUTBOUND_ALLOW_PRIVATE: '1',
    });
    expect({ ...config }).toEqual({
      port: 8080,
      databaseUrl: 'postgres://app:pw@db:5432/estate',
      databasePoolSize: 25,
      redisUrl: 'redis://cache:6379',
      publicBaseUrl: 'https://api.agency.example',
      logLevel: 'warn',
      migrateOnStart: true,
      metricsEnabled: true,
      metricsPort: 9464,
      trustProxyHops: 1,
      embeddedDataDir: '/var/lib/estate',
      embeddedPort: 55000,
      mediaS3: null,
      mcpAllowedOrigins: ['https://claude.ai', 'http://localhost:6274'],
      webhookAllowInsecure: true,
      outboundAllowPrivate: true,
      apiName: 'estate-agency-api',
    });
  });

  it('reads WEBHOOK_ALLOW_PRIVATE when OUTBOUND_ALLOW_PRIVATE is unset (its former name)', () => {
    expect(AppConfig.fromEnv({ WEBHOOK_ALLOW_PRIVATE: 'true' }).outboundAllowPrivate).toBe(true);
    expect(
      AppConfig.fromEnv({ WEBHOOK_ALLOW_PRIVATE: 'true', OUTBOUND_ALLOW_PRIVATE: 'false' })
        .outboundAllowPrivate,
    ).toBe(false);
  });

  it('derives the public base URL from PORT by default', () => {
    expect(AppConfig.fromEnv({ PORT: '4100' }).publicBaseUrl).toBe('http://localhost:4100');
  });

  it('accepts postgresql:// and rediss:// as well', () => {
    const config = AppConfig.fromEnv({
      DATABASE_URL: 'postgresql://db/estate',
      REDIS_URL: 'rediss://cache:6380',
    });
    expect(config).toMatchObject({ databaseUrl: 'postgresql://db/estate', redisUrl: 'rediss://cache:6380' });
  });

  it.each([
    ['1', true],
    ['0', false],
    ['false', false],
  ])('reads MIGRATE_ON_START=%s as %s', (value, expected) => {
    expect(AppConfig.fromEnv({ MIGRATE_ON_START: value }).migrateOnStart).toBe(expected);
  });

  describe('a bad value throws a one-line ConfigError naming the variable', () => {
    it.each([
      ['PORT', 'abc'],
      ['PORT', '0'],
      ['PORT', '65536'],
      ['PORT', '80.5'],
      ['DATABASE_URL', 'mysql://x'],
      ['REDIS_URL', 'http://cache:6379'],
      ['PUBLIC_BASE_URL', 'ftp://files.example'],
      ['LOG_LEVEL', 'loud'],
      ['MIGRATE_ON_START', 'yes'],
      ['EMBEDDED_PG_PORT', '80'],
      ['DATABASE_POOL_SIZE', '0'],
      ['DATABASE_POOL_SIZE', '101'],
      ['MCP_ALLOWED_ORIGINS', 'claude.ai'],
      ['MCP_ALLOWED_ORIGINS', 'https://claude.ai/path'],
      ['OUTBOUND_ALLOW_PRIVATE', 'yes'],
      ['WEBHOOK_ALLOW_PRIVATE', 'yes'],
    ])('%s=%s', (name, value) => {
      const err = configErrorFor({ [name]: value });
      expect(err.message).toContain(name);
      expect(err.message).not.toContain('\n');
    });

    it('names every bad variable at once, on one line', () => {
      const err = configErrorFor({ PORT: 'abc', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' });
      expect(err.message).toEqual(expect.stringContaining('PORT'));
      expect(err.message).toEqual(expect.stringContaining('DATABASE_URL'));
      expect(err.message).toEqual(expect.stringContaining('LOG_LEVEL'));
      expect(err.message).not.toContain('\n');
    });

    it('names only the bad variable', () => {
      const err = configErrorFor({ PORT: '3000', LOG_LEVEL: 'loud' });
      expect(err.message).toContain('LOG_LEVEL');
      expect(err.message).not.toContain('PORT');
    });

    it('never echoes the value, which may hold a password', () => {
      const err = configErrorFor({ DATABASE_URL: 'mysql://app:hunter2@db/estate' });
      expect(err.message).toContain('DATABASE_URL');
      expect(err.message).not.toContain('hunter2');
    });

    it('is an Error a caller can tell apart', () => {
      const err = configErrorFor({ PORT: 'abc' });
      expect(err).toBeInstanceOf(Error);
      expect(err).toBeInstanceOf(ConfigError);
    });
  });
});
