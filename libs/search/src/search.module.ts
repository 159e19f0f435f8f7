import { Module } from '@nestjs/common';
import { CrmModule } from '@app/crm';
import { ListingsModule } from '@app/listings';
import { ListingMatchesService } from './application/listing-matches.service';
import { SearchService } from './application/search.service';
import { ChunkIndexer } from './application/search-indexer';
import { Bm25fReranker } from './domain/bm25f-reranker';
import { Reranker } from './domain/reranker';
import { ListingMatchesController } from './http/listing-matches.controller';
import { SearchController } from './http/search.controller';
import { SearchJobsModule } from './search-jobs.module';

/**
 * Search (issue 18): the passage index the CRM writes through its `SearchIndexer` port, `POST
 * /v1/search` over CRM history and `POST /v1/listing-matches` (listings read through
 * `ListingSources`). PostgreSQL full text per language, a bundled thesaurus and an in-process
 * rerank (`Reranker`: a model can replace `Bm25fReranker` here); lead reach only through `LeadAccess`.
 */
@Module({
  imports: [CrmModule, ListingsModule, SearchJobsModule],
  controllers: [SearchController, ListingMatchesController],
  providers: [
    ChunkIndexer,
    SearchService,
    ListingMatchesService,
    { provide: Reranker, useFactory: () => new Bm25fReranker() },
  ],
  exports: [ChunkIndexer],
})
export class SearchModule {}
