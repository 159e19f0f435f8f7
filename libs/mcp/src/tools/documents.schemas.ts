import { z } from 'zod';
import { DOCUMENT_KINDS, DOCUMENT_SCOPES, DOCUMENT_SORTS, DOCUMENT_VISIBILITIES } from '@app/documents';
import { ISO_TIME, offsetPageOf } from './schemas';
import { ID, INT } from './view-schemas';

/** Documents (spec "Document and folder") as zod. */

/** `GET /v1/documents` (`ListDocumentsQueryDto`). */
export const listDocumentsInput = {
  offset: z.number().int().min(0).optional().describe('Default 0.'),
  limit: z.number().int().min(1).max(50).optional().describe('Default 20.'),
  q: z
    .string()
    .max(128)
    .optional()
    .describe(
      'Matches the title (case- and accent-insensitive contains) or the body (full-text words; `"a phrase"`, `or`, `-word`).',
    ),
  kind: z.enum(DOCUMENT_KINDS).optional(),
  visibility: z.enum(DOCUMENT_VISIBILITIES).optional().describe('Only narrows what the caller sees.'),
  folderId: z.string().optional().describe('A folder id (UUID), or `root` for documents in no folder.'),
  scope: z
    .enum(DOCUMENT_SCOPES)
    .optional()
    .describe('`shared`: made by a colleague (and visible to the caller); `pinned`: the caller’s pins.'),
  mine: z.enum(['true']).optional().describe('Only documents the caller made; `true` only.'),
  sort: z
    .enum(DOCUMENT_SORTS)
    .optional()
    .describe('`updated` (default): most recently changed first; `title`: A to Z; `size`: largest first.'),
};

export const getDocumentInput = {
  documentId: z.string().describe('The document id (UUID).'),
};

const rowShape = {
  id: ID,
  title: z.string(),
  kind: z.enum(DOCUMENT_KINDS),
  visibility: z
    .enum(DOCUMENT_VISIBILITIES)
    .describe(
      '`private` (creator and admins), `organization` (everyone in the agency), `public` (shared by link).',
    ),
  sizeBytes: INT.describe('UTF-8 bytes of the body, or the file’s size.'),
  createdBy: ID,
  assigneeIds: z.array(ID),
  shareUrl: z.string().nullable().describe('The public link while shared.'),
  attachedLeadCount: INT,
  attachedListingCount: INT,
  folderId: ID.nullable(),
  createdAt: ISO_TIME,
  updatedAt: ISO_TIME,
};

export const documentRow = z.object(rowShape);

export const documentPageOutput = offsetPageOf(documentRow);

/** `GET /v1/documents/{documentId}`. */
export const documentOutput = z.object({
  ...rowShape,
  body: z
    .string()
    .describe('GFM Markdown, whole; a whiteboard’s plain-text outline; `""` for pdf and file documents.'),
  truncated: z.boolean().describe('Always false: the whole body is returned.'),
  shareRevokedAt: ISO_TIME.nullable(),
  shareExpiresAt: ISO_TIME.nullable(),
  attachedLeadIds: z.array(INT).describe('The attached leads the caller reaches.'),
  attachedListingIds: z.array(z.string()),
  file: z
    .object({ fileName: z.string(), mimeType: z.string() })
    .optional()
    .describe('pdf and file documents only: metadata, never the bytes.'),
});
