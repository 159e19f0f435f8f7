import { SearchDocuments } from '@app/crm';
import { ChunkIndexer } from '@app/search';
import { DemoAgency, DemoSeeder } from '../seed/demo-seeder';
import { integerFlag, OpsCommand } from './ops-command';

export const seedDemoCommand: OpsCommand<{ leads: number }, DemoAgency> = {
  name: 'seed:demo',
  usage: '[--leads N]',
  summary:
    'creates a demo agency (admin, two members, a team, tags, N leads with notes and tasks, 2,000 listings)',
  flags: { leads: { type: 'string' } },
  options: { leads: 'how many leads to create, 0 to 1,000,000 (default 200); progress goes to stderr' },
  parse: (values) => ({ leads: integerFlag(values, 'leads', { min: 0, max: 1_000_000 }, 200) }),
  // the seeder writes with set-based SQL, past the CRM's services: its notes and tasks are then
  // made searchable the way `search:reindex` does it
  run: async (app, { leads }, progress) => {
    const agency = await app.get(DemoSeeder).seed(leads, progress);
    await app.get(SearchDocuments).rebuild(agency.organizationId, app.get(ChunkIndexer), progress);
    return agency;
  },
  describe: (agency) =>
    [
      `Demo agency ${agency.organizationId} with ${agency.leads} leads and ${agency.listings} listings.`,
      `Admin: ${agency.admin.email} / ${agency.admin.password}  key ${agency.admin.apiKey}`,
      ...agency.members.map((m) => `Member: ${m.email} / ${m.password}  key ${m.apiKey}`),
    ].join('\n'),
};
