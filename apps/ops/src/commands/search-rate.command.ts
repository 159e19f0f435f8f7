import { type OrganizationSearchRate, OrganizationsService } from '@app/identity';
import { FlagValues, integerFlag, OpsCommand, organizationFlag, UsageError } from './ops-command';

/** `--per-minute N` or `--reset` (back to the default), not both. */
function perMinuteOrReset(values: FlagValues): number | null {
  const reset = values.reset === true;
  if (reset === (values['per-minute'] !== undefined))
    throw new UsageError('give exactly one of --per-minute, --reset');
  return reset ? null : integerFlag(values, 'per-minute', { min: 1, max: 1_000_000 });
}

export const searchRateCommand: OpsCommand<
  { organizationId: string; perMinute: number | null },
  OrganizationSearchRate
> = {
  name: 'search-rate',
  usage: '--org <organizationId> --per-minute N|--reset',
  summary:
    "sets the organization's figure for the shared search limit (per key and per organization; default 30)",
  flags: { org: { type: 'string' }, 'per-minute': { type: 'string' }, reset: { type: 'boolean' } },
  options: {
    org: 'the organization id (required)',
    'per-minute': 'search calls a minute per key and per organization, 1 to 1,000,000',
    reset: 'back to the default (30)',
  },
  parse: (values) => ({
    organizationId: organizationFlag(values),
    perMinute: perMinuteOrReset(values),
  }),
  run: (app, { organizationId, perMinute }) =>
    app.get(OrganizationsService).setSearchRate(organizationId, perMinute),
  describe: (org) =>
    `Organization ${org.id} (${org.name}): search limit ${org.effectivePerMinute} a minute per key and per organization` +
    `${org.searchRatePerMinute === null ? ' (the default)' : ''}.`,
};
