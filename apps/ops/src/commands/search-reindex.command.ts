import { SearchDocuments, type SearchReindexJson } from '@app/crm';
import { ChunkIndexer } from '@app/search';
import { OpsCommand, requiredString, UsageError } from './ops-command';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const searchReindexCommand: OpsCommand<{ organizationId: string }, SearchReindexJson> = {
  name: 'search:reindex',
  usage: '--org <organizationId>',
  summary:
    "rebuilds the organization's search passages from its notes, tasks, messages, emails, transcripts and analyses",
  flags: { org: { type: 'string' } },
  options: { org: 'the organization id (required)' },
  parse: (values) => {
    const organizationId = requiredString(values, 'org');
    if (!UUID.test(organizationId)) throw new UsageError('--org must be an organization id (a UUID)');
    return { organizationId: organizationId.toLowerCase() };
  },
  // the search context's indexer itself: a rebuild without one must fail, not index nothing
  run: (app, { organizationId }, progress) =>
    app.get(SearchDocuments).rebuild(organizationId, app.get(ChunkIndexer), progress),
  describe: (result) =>
    `Organization ${result.organizationId}: ${result.documents} records indexed into ${result.chunks} passages, ` +
    `${result.removed} orphaned passages removed (${result.ms} ms).`,
};
