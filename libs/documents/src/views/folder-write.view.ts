import { ApiProperty } from '@nestjs/swagger';
import type { DocumentFolder } from '../domain/document-folder.entity';

/**
 * A folder as the folder writes answer it (spec "Document and folder": Folder {id, name, parentId,
 * documentCount}); the same shape as the folder list's (to reconcile with views/folder.view.ts).
 */
export interface DocumentFolderJson {
  id: string;
  name: string;
  parentId: string | null;
  documentCount: number;
}

/** `documentCount`: the documents in it (not in its subfolders) the caller can see. */
export const toDocumentFolderJson = (folder: DocumentFolder, documentCount: number): DocumentFolderJson => ({
  id: folder.id,
  name: folder.name,
  parentId: folder.parentId,
  documentCount,
});

export class DocumentFolderView implements DocumentFolderJson {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ minLength: 1, maxLength: 100 }) name: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'null: at the root.' })
  parentId: string | null;
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Documents directly in this folder that the caller can see.',
  })
  documentCount: number;
}
