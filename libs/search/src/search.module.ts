import { Module } from '@nestjs/common';
import { CrmModule } from '@app/crm';
import { ChunkIndexer } from './application/search-indexer';

/**
 * Search (issue 18): the passage index the CRM writes through its `SearchIndexer` port, `POST
 * /v1/search` over CRM history and `POST /v1/listing-matches` (listings read through
 * `ListingSources`). PostgreSQL full text per language, a bundled thesaurus and an in-process
 * rerank; lead reach only through `LeadAccess`.
 */
@Module({
  imports: [CrmModule],
  providers: [ChunkIndexer],
  exports: [ChunkIndexer],
})
export class SearchModule {}
