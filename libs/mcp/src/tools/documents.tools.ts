import { z } from 'zod';
import { DocumentsQueries, ListDocumentsQueryDto } from '@app/documents';
import {
  documentOutput,
  documentPageOutput,
  getDocumentInput,
  listDocumentsInput,
} from './documents.schemas';
import { asDto } from './dto';
import { uuidParam } from './route-input';
import { defineTool } from './tool';

const PLAN = 'Needs an active plan (SUBSCRIPTION_REQUIRED).';

/** The document library: the list and one document with its body. */
export const DOCUMENT_TOOLS = [
  defineTool({
    name: 'list_documents',
    title: 'List documents',
    description:
      'The documents the caller sees (a member: everything but colleagues’ private documents), most ' +
      'recently changed first unless `sort` says otherwise, `{data, hasMore, nextOffset, total}`; rows ' +
      `carry no body. ${PLAN}`,
    route: 'GET /v1/documents',
    input: z.object(listDocumentsInput),
    output: documentPageOutput,
    annotations: { readOnlyHint: true },
    run: async ({ principal, input, get }) =>
      get(DocumentsQueries).list(principal, (await asDto(ListDocumentsQueryDto, 'query', input)).listQuery()),
  }),
  defineTool({
    name: 'get_document',
    title: 'Read a document',
    description:
      'The whole body (Markdown; a whiteboard’s plain-text outline; pdf and file documents: `""` and ' +
      '`file {fileName, mimeType}`, never the bytes). NOT_FOUND for another agency’s, or a colleague’s ' +
      `private document when the caller is not an admin. ${PLAN}`,
    route: 'GET /v1/documents/{documentId}',
    input: z.object(getDocumentInput),
    output: documentOutput,
    annotations: { readOnlyHint: true },
    run: ({ principal, input, get }) =>
      get(DocumentsQueries).get(principal, uuidParam(input.documentId, 'documentId')),
  }),
];
