import { type FactsRebuildJson, LeadFactsService } from '@app/crm';
import { OpsCommand, organizationFlag } from './ops-command';

export const factsRebuildCommand: OpsCommand<{ organizationId: string }, FactsRebuildJson> = {
  name: 'facts:rebuild',
  usage: '--org <organizationId>',
  summary:
    'recomputes the lead facts (lastCallAt, totalCalls, unansweredStreak, …) of every lead of the organization',
  flags: { org: { type: 'string' } },
  options: { org: 'the organization id (required)' },
  parse: (values) => ({ organizationId: organizationFlag(values) }),
  run: (app, { organizationId }) => app.get(LeadFactsService).rebuild(organizationId),
  describe: (result) =>
    `Organization ${result.organizationId}: facts of ${result.leads} leads recomputed (${result.changed} changed).`,
};
