import type { EntityManager } from '@mikro-orm/postgresql';
import {
  type SearchDocument,
  type SearchIndexer,
  SearchIndexerProvider,
  type SearchSourceKind,
} from '@app/crm';
import { preparedRows } from '@app/platform';
import { chunkText } from '../domain/chunking';
import {
  ChunkRow,
  insertChunksStatement,
  removeChunksStatement,
  removeSourcesStatement,
} from './search-index.sql';

/** Rows per insert statement (nine arrays of this many values). */
const INSERT_BATCH = 500;

/**
 * Issue 18 item 2: the CRM's `SearchIndexer`. Each call runs in the caller's transaction: a
 * document's old passages go, its new ones (cut by `chunkText`) come, so the index always says
 * what the committed records say. Visibility is not stored: search joins it at query time.
 */
@SearchIndexerProvider()
export class ChunkIndexer implements SearchIndexer {
  async upsertSources(em: EntityManager, documents: SearchDocument[]): Promise<void> {
    for (const [organizationId, ofOrganization] of groupBy(documents, (d) => d.organizationId)) {
      await preparedRows(
        em,
        removeSourcesStatement(
          organizationId,
          ofOrganization.map((d) => d.kind),
          ofOrganization.map((d) => d.sourceId),
        ),
      );
      const rows = ofOrganization.flatMap(toChunkRows);
      for (let i = 0; i < rows.length; i += INSERT_BATCH) {
        await preparedRows(em, insertChunksStatement(organizationId, rows.slice(i, i + INSERT_BATCH)));
      }
    }
  }

  async removeSources(
    em: EntityManager,
    organizationId: string,
    kind: SearchSourceKind,
    sourceIds: string[],
  ): Promise<void> {
    await preparedRows(em, removeChunksStatement(organizationId, kind, sourceIds));
  }
}

export function toChunkRows(document: SearchDocument): ChunkRow[] {
  return chunkText(document.text).map((text, position) => ({
    leadId: document.leadId,
    sourceKind: document.kind,
    sourceId: document.sourceId,
    position,
    occurredAt: document.occurredAt,
    language: document.language,
    text,
    untrusted: document.untrusted,
  }));
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}
