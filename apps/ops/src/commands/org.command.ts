import { OrganizationsService, type OrganizationState } from '@app/identity';
import { exactlyOne, OpsCommand, requiredString } from './ops-command';

export const orgCommand: OpsCommand<{ organizationId: string; disabled: boolean }, OrganizationState> = {
  name: 'org',
  usage: '--org <organizationId> --disable|--enable',
  summary: 'disables (403 ORG_DISABLED on /v1) or re-enables an organization',
  flags: { org: { type: 'string' }, disable: { type: 'boolean' }, enable: { type: 'boolean' } },
  options: {
    org: 'the organization id (required)',
    disable: 'disable the organization (403 ORG_DISABLED on /v1)',
    enable: 'enable it again',
  },
  parse: (values) => ({
    organizationId: requiredString(values, 'org'),
    disabled: exactlyOne(values, { disable: true, enable: false }),
  }),
  run: (app, { organizationId, disabled }) =>
    app.get(OrganizationsService).setDisabled(organizationId, disabled),
  describe: (org) => `Organization ${org.id} (${org.name}): ${org.disabled ? 'disabled' : 'enabled'}.`,
};
