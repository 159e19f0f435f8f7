import { Clock } from '@app/platform';
import { RecentIndexes } from '@app/search';
import { OpsCommand } from './ops-command';

interface RecentIndexesJson {
  since: string;
  created: string[];
  dropped: string[];
}

export const searchRecentIndexesCommand: OpsCommand<void, RecentIndexesJson> = {
  name: 'search:recent-indexes',
  usage: '',
  summary:
    "builds this month's recent search indexes concurrently and drops the older ones (the hourly job search.recent-indexes)",
  flags: {},
  options: {},
  parse: () => undefined,
  run: (app) => app.get(RecentIndexes).roll(app.get(Clock).now()),
  describe: (result) =>
    `Recent search indexes from ${result.since}: ` +
    `built ${result.created.length ? result.created.join(', ') : 'none'}, ` +
    `dropped ${result.dropped.length ? result.dropped.join(', ') : 'none'}.`,
};
