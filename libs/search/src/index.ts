export { SearchModule } from './search.module';
export { ChunkIndexer, toChunkRows } from './application/search-indexer';
export { insertChunksStatement, removeSourcesStatement, type ChunkRow } from './application/search-index.sql';
export { chunkText, CHUNK_LIMITS } from './domain/chunking';
