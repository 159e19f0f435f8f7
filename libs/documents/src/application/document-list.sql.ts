/**
 * The SQL of the document list (`GET /v1/documents`), as pure functions: DocumentsQueries runs it
 * and a framework-free baseline can run the very same text.
 */
import type { Statement } from '@app/platform/core';
import { visibleDocumentsSql, type DocumentViewer, type DocumentVisibility } from '../domain/document-access';
import type { DocumentKind } from '../domain/document.entity';

export type { Statement };

export const DOCUMENT_SORTS = ['updated', 'title', 'size'] as const;
export type DocumentSort = (typeof DOCUMENT_SORTS)[number];

export const DOCUMENT_SCOPES = ['shared', 'pinned'] as const;
export type DocumentScope = (typeof DOCUMENT_SCOPES)[number];

/** `root`: documents in no folder. */
export const ROOT_FOLDER = 'root';

export interface DocumentListFilters {
  q?: string;
  kind?: DocumentKind;
  /** Only narrows what the viewer sees. */
  visibility?: DocumentVisibility;
  /** A folder id or `root`. */
  folderId?: string;
  scope?: DocumentScope;
  mine?: boolean;
  sort?: DocumentSort;
}

/** The columns of a list row (never the body). */
export const DOCUMENT_ROW_COLUMNS = `
  d.id, d.title, d.kind, d.visibility, d.size_bytes, d.created_by, to_json(d.assignee_ids) as assignee_ids,
  d.folder_id, d.share_token, d.share_expires_at, d.share_revoked_at,
  to_json(d.attached_listing_ids) as attached_listing_ids, d.created_at, d.updated_at`;

export interface DocumentRowRecord {
  id: string;
  title: string;
  kind: DocumentKind;
  visibility: DocumentVisibility;
  size_bytes: string;
  created_by: string;
  assignee_ids: string[];
  folder_id: string | null;
  share_token: string | null;
  share_expires_at: string | Date | null;
  share_revoked_at: string | Date | null;
  attached_listing_ids: string[];
  created_at: string | Date;
  updated_at: string | Date;
}

/** `%`, `_` and `\` are literal in the searched term. */
export const escapeLike = (term: string): string => term.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Order of the page by the page's output columns (ties by id, ascending: the
 * `(organization_id, updated_at desc, id)` index serves the default).
 */
const ORDER: Record<DocumentSort, string> = {
  updated: 'updated_at desc, id',
  title: 'sort_title, id',
  size: 'size_bytes desc, id',
};
const qualified = (order: string, alias: string) =>
  order
    .split(', ')
    .map((key) => `${alias}.${key}`)
    .join(', ');

/** The WHERE clause: what the viewer sees in the organization, then the filters. */
export function documentWhere(
  organizationId: string,
  viewer: DocumentViewer,
  filters: DocumentListFilters,
): Statement {
  const visible = visibleDocumentsSql('d', organizationId, viewer);
  const clauses = [visible.sql];
  const params: unknown[] = [...visible.params];
  if (filters.kind) {
    clauses.push('d.kind = ?');
    params.push(filters.kind);
  }
  if (filters.visibility) {
    clauses.push('d.visibility = ?');
    params.push(filters.visibility);
  }
  if (filters.folderId === ROOT_FOLDER) clauses.push('d.folder_id is null');
  else if (filters.folderId) {
    clauses.push('d.folder_id = ?');
    params.push(filters.folderId);
  }
  if (filters.scope === 'shared') {
    clauses.push('d.created_by <> ?');
    params.push(viewer.userId);
  } else if (filters.scope === 'pinned') {
    clauses.push('exists (select 1 from document_pins p where p.user_id = ? and p.document_id = d.id)');
    params.push(viewer.userId);
  }
  if (filters.mine) {
    clauses.push('d.created_by = ?');
    params.push(viewer.userId);
  }
  if (filters.q) {
    // the title: accent- and case-insensitive contains (trigram index on app_unaccent(lower(title)));
    // the body: full-text words (GIN on body_tsv, the same `simple` config over the unaccented body)
    clauses.push(
      `(app_unaccent(lower(d.title)) like '%' || app_unaccent(lower(?)) || '%' escape '\\'
        or d.body_tsv @@ websearch_to_tsquery('simple', app_unaccent(?)))`,
    );
    params.push(escapeLike(filters.q), filters.q);
  }
  return { sql: clauses.join(' and '), params };
}

/**
 * One page and the exact total in one statement. The page's ids (and sort keys) are picked first;
 * the row columns are read for those rows only. A search scans its matches once, for both the
 * count and the page. Every answer has at least one row: the total, with the document columns null
 * past the last page. The text varies with the filter set (run it unprepared).
 */
export function documentListStatement(
  organizationId: string,
  viewer: DocumentViewer,
  filters: DocumentListFilters,
  offset: number,
  limit: number,
): Statement {
  const where = documentWhere(organizationId, viewer, filters);
  const order = ORDER[filters.sort ?? 'updated'];
  const keys = 'd.id, d.updated_at, lower(d.title) as sort_title, d.size_bytes';
  const select = `select total.total, ${DOCUMENT_ROW_COLUMNS}
      from total left join (page join documents d on d.id = page.id) on true
     order by ${qualified(order, 'page')}`;
  if (!filters.q) {
    return {
      sql: `with total as (select count(*) as total from documents d where ${where.sql}),
            page as (select ${keys} from documents d where ${where.sql}
                      order by ${order} limit ? offset ?)
            ${select}`,
      params: [...where.params, ...where.params, limit, offset],
    };
  }
  return {
    sql: `with matches as materialized (select ${keys} from documents d where ${where.sql}),
          total as (select count(*) as total from matches),
          page as (select * from matches order by ${order} limit ? offset ?)
          ${select}`,
    params: [...where.params, limit, offset],
  };
}

/** How many leads each of a page's documents is attached to (the rows' `attachedLeadCount`). */
export const attachmentCountsStatement = (documentIds: string[]): Statement => ({
  sql: `select document_id as "documentId", count(*)::int as n from document_lead_attachments
         where document_id = any(?::uuid[]) group by document_id`,
  params: [documentIds],
});
