export { SearchModule } from './search.module';
export { SearchJobsModule } from './search-jobs.module';
export { RecentIndexes } from './application/recent-indexes';
export { ChunkIndexer, toChunkRows } from './application/search-indexer';
export { insertChunksStatement, removeSourcesStatement, type ChunkRow } from './application/search-index.sql';
export { chunkText, CHUNK_LIMITS } from './domain/chunking';
// the MCP tools `search_crm` and `match_listing` (issue 19) run the routes' services with their DTOs
export { SearchService } from './application/search.service';
export { ListingMatchesService } from './application/listing-matches.service';
export { SearchDto } from './http/dto/search.dto';
export { ListingMatchesDto } from './http/dto/listing-matches.dto';
