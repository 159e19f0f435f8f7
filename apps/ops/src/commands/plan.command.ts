import { OrganizationsService, type OrganizationState } from '@app/identity';
import { exactlyOne, OpsCommand, requiredString } from './ops-command';

export const planCommand: OpsCommand<{ organizationId: string; active: boolean }, OrganizationState> = {
  name: 'plan',
  usage: '--org <organizationId> --active|--inactive',
  summary: "switches the organization's plan (`entitled` in /v1/me)",
  flags: { org: { type: 'string' }, active: { type: 'boolean' }, inactive: { type: 'boolean' } },
  options: {
    org: 'the organization id (required)',
    active: 'mark the plan active',
    inactive: 'mark the plan inactive (plan-gated routes are refused)',
  },
  parse: (values) => ({
    organizationId: requiredString(values, 'org'),
    active: exactlyOne(values, { active: true, inactive: false }),
  }),
  run: (app, { organizationId, active }) => app.get(OrganizationsService).setPlan(organizationId, active),
  describe: (org) => `Organization ${org.id} (${org.name}): plan ${org.planActive ? 'active' : 'inactive'}.`,
};
