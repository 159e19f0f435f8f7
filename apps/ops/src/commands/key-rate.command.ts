import { ApiKeyMaintenanceService } from '@app/identity';
import { integerFlag, OpsCommand, requiredString } from './ops-command';

export const keyRateCommand: OpsCommand<
  { keyId: string; perMinute: number },
  { id: string; rateLimitPerMinute: number | null }
> = {
  name: 'key-rate',
  usage: '--key <keyId> --per-minute N',
  summary: "sets the key's rateLimitPerMinute (the 10-minute and hourly windows scale with it)",
  flags: { key: { type: 'string' }, 'per-minute': { type: 'string' } },
  options: {
    key: 'the API key id (required)',
    'per-minute': 'requests per minute per endpoint, 1 to 1,000,000 (required)',
  },
  parse: (values) => ({
    keyId: requiredString(values, 'key'),
    perMinute: integerFlag(values, 'per-minute', { min: 1, max: 1_000_000 }),
  }),
  run: (app, { keyId, perMinute }) => app.get(ApiKeyMaintenanceService).setRateLimit(keyId, perMinute),
  describe: (key) => `Key ${key.id}: ${key.rateLimitPerMinute} requests per minute per endpoint.`,
};
