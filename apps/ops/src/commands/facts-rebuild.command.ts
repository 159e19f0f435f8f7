import { type FactsRebuildJson, LeadFactsService } from '@app/crm';
import { OpsCommand, requiredString, UsageError } from './ops-command';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const factsRebuildCommand: OpsCommand<{ organizationId: string }, FactsRebuildJson> = {
  name: 'facts:rebuild',
  usage: '--org <organizationId>',
  summary:
    'recomputes the lead facts (lastCallAt, totalCalls, unansweredStreak, …) of every lead of the organization',
  flags: { org: { type: 'string' } },
  options: { org: 'the organization id (required)' },
  parse: (values) => {
    const organizationId = requiredString(values, 'org');
    if (!UUID.test(organizationId)) throw new UsageError('--org must be an organization id (a UUID)');
    return { organizationId: organizationId.toLowerCase() };
  },
  run: (app, { organizationId }) => app.get(LeadFactsService).rebuild(organizationId),
  describe: (result) =>
    `Organization ${result.organizationId}: facts of ${result.leads} leads recomputed (${result.changed} changed).`,
};
