import { DatabaseMigrations } from '@app/platform';
import { OpsCommand } from './ops-command';

export const migrateCommand: OpsCommand<void, { applied: string[]; executed: number }> = {
  name: 'migrate',
  usage: '',
  summary: 'applies pending migrations',
  flags: {},
  options: {},
  parse: () => undefined,
  run: (app) => app.get(DatabaseMigrations).applyPending(),
  describe: ({ applied, executed }) =>
    applied.length === 0
      ? `No pending migrations (${executed} applied).`
      : `Applied ${applied.length} migration(s): ${applied.join(', ')}.`,
};
