import { ApiProperty } from '@nestjs/swagger';
import type { OffsetResult } from '@app/platform';
import { DOCUMENT_VISIBILITIES, type DocumentVisibility } from '../domain/document-access';
import { DOCUMENT_KINDS, type Document, type DocumentKind } from '../domain/document.entity';

/** A document as lists show it (spec "Document and folder", row). */
export interface DocumentRowJson {
  id: string;
  title: string;
  kind: DocumentKind;
  visibility: DocumentVisibility;
  sizeBytes: number;
  createdBy: string;
  assigneeIds: string[];
  shareUrl: string | null;
  attachedLeadCount: number;
  attachedListingCount: number;
  folderId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The full document (read, create, change answers). */
export interface DocumentJson extends DocumentRowJson {
  body: string;
  truncated: boolean;
  shareRevokedAt: string | null;
  shareExpiresAt: string | null;
  attachedLeadIds: number[];
  attachedListingIds: string[];
  /** pdf and file documents only: metadata, never the bytes. */
  file?: { fileName: string; mimeType: string };
}

/** What a document's view adds from other tables: its lead attachments. */
export interface DocumentAttachments {
  /** Every lead it is attached to. */
  count: number;
  /** Those the caller reaches (full view only). */
  reachableLeadIds: number[];
}

/** `{PUBLIC_BASE_URL}/d/<token>` while the share is live, else null. */
export const shareUrlOf = (document: Document, publicBaseUrl: string): string | null =>
  document.shareLive ? `${publicBaseUrl}/d/${document.shareToken}` : null;

export const toDocumentRowJson = (
  document: Document,
  attachedLeadCount: number,
  publicBaseUrl: string,
): DocumentRowJson => ({
  id: document.id,
  title: document.title,
  kind: document.kind,
  visibility: document.visibility,
  sizeBytes: Number(document.sizeBytes),
  createdBy: document.createdBy,
  assigneeIds: document.assigneeIds,
  shareUrl: shareUrlOf(document, publicBaseUrl),
  attachedLeadCount,
  attachedListingCount: document.attachedListingIds.length,
  folderId: document.folderId,
  createdAt: document.createdAt.toISOString(),
  updatedAt: document.updatedAt.toISOString(),
});

/** The whole body, never cut (`truncated` false); pdf/file bodies are `""` plus `file`. */
export const toDocumentJson = (
  document: Document,
  attachments: DocumentAttachments,
  publicBaseUrl: string,
): DocumentJson => ({
  ...toDocumentRowJson(document, attachments.count, publicBaseUrl),
  body: document.body,
  truncated: false,
  shareRevokedAt: document.shareRevokedAt?.toISOString() ?? null,
  shareExpiresAt: document.shareExpiresAt?.toISOString() ?? null,
  attachedLeadIds: attachments.reachableLeadIds,
  attachedListingIds: document.attachedListingIds,
  ...(document.file ? { file: { fileName: document.file.fileName, mimeType: document.file.mimeType } } : {}),
});

export class DocumentFileView {
  @ApiProperty({ example: 'floor-plan.pdf' }) fileName: string;
  @ApiProperty({ example: 'application/pdf' }) mimeType: string;
}

export class DocumentRowView implements DocumentRowJson {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ minLength: 1, maxLength: 200 }) title: string;
  @ApiProperty({ enum: DOCUMENT_KINDS }) kind: DocumentKind;
  @ApiProperty({
    enum: DOCUMENT_VISIBILITIES,
    description:
      '`private` (creator and admins), `organization` (everyone in the agency), `public` (shared by link).',
  })
  visibility: DocumentVisibility;
  @ApiProperty({ type: 'integer', description: 'UTF-8 bytes of the body, or the file’s size.' })
  sizeBytes: number;
  @ApiProperty({ format: 'uuid' }) createdBy: string;
  @ApiProperty({ type: [String], format: 'uuid', description: 'Informational: they widen nothing.' })
  assigneeIds: string[];
  @ApiProperty({ type: String, format: 'uri', nullable: true, description: 'The public link while shared.' })
  shareUrl: string | null;
  @ApiProperty({ type: 'integer' }) attachedLeadCount: number;
  @ApiProperty({ type: 'integer' }) attachedListingCount: number;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) folderId: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class DocumentView extends DocumentRowView implements DocumentJson {
  @ApiProperty({
    description: 'GFM Markdown, whole; a whiteboard’s plain-text outline; `""` for pdf and file documents.',
  })
  body: string;
  @ApiProperty({ enum: [false], description: 'Always false: the whole body is returned.' })
  truncated: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) shareRevokedAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) shareExpiresAt: string | null;
  @ApiProperty({
    type: [Number],
    description: 'The attached leads the caller reaches (`attachedLeadCount` counts them all).',
  })
  attachedLeadIds: number[];
  @ApiProperty({ type: [String] }) attachedListingIds: string[];
  @ApiProperty({ type: DocumentFileView, required: false, description: 'pdf and file documents only.' })
  file?: { fileName: string; mimeType: string };
}

/** `GET /v1/documents`: a page of rows, offset paging with the exact total. */
export class DocumentPageView implements OffsetResult<DocumentRowJson> {
  @ApiProperty({ type: [DocumentRowView] }) data: DocumentRowView[];
  @ApiProperty({ description: 'While true, send `nextOffset` as the next `offset`.' }) hasMore: boolean;
  @ApiProperty({ type: 'integer', nullable: true }) nextOffset: number | null;
  @ApiProperty({ type: 'integer', description: 'Exact number of documents matching the filters.' })
  total: number;
}
