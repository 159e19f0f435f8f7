/**
 * Documents (issue 15): the document aggregate and its access policy (domain/), the Nest module
 * with the `/v1` and session routes and the public page.
 */
export * from './domain/document-access';
export {
  DOCUMENT_KINDS,
  DOCUMENT_LIMITS,
  Document,
  codePoints,
  utf8Bytes,
  type DocumentKind,
} from './domain/document.entity';
export { DocumentsModule, DOCUMENT_ENTITIES } from './documents.module';
export { DocumentJobsModule } from './document-jobs.module';
// the lead timeline's `document` entries (tests stand another source in for it)
export { DocumentsTimelineSource } from './application/documents.timeline-source';
// the MCP tools `list_documents` and `get_document` (issue 19) run the routes' queries with their DTOs
export { DocumentsQueries } from './application/documents.queries';
export { ListDocumentsQueryDto } from './http/dto/documents.dto';
export { DOCUMENT_SCOPES, DOCUMENT_SORTS } from './application/document-list.sql';
