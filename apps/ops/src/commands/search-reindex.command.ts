import { SearchDocuments, type SearchReindexJson } from '@app/crm';
import { ChunkIndexer } from '@app/search';
import { OpsCommand, organizationFlag } from './ops-command';

export const searchReindexCommand: OpsCommand<{ organizationId: string }, SearchReindexJson> = {
  name: 'search:reindex',
  usage: '--org <organizationId>',
  summary:
    "rebuilds the organization's search passages from its notes, tasks, messages, emails, transcripts and analyses",
  flags: { org: { type: 'string' } },
  options: { org: 'the organization id (required)' },
  parse: (values) => ({ organizationId: organizationFlag(values) }),
  // the search context's indexer itself: a rebuild without one must fail, not index nothing
  run: (app, { organizationId }, progress) =>
    app.get(SearchDocuments).rebuild(organizationId, app.get(ChunkIndexer), progress),
  describe: (result) =>
    `Organization ${result.organizationId}: ${result.documents} records indexed into ${result.chunks} passages, ` +
    `${result.removed} orphaned passages removed (${result.ms} ms).`,
};
