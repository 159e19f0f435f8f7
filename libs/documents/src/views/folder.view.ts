import { ApiProperty } from '@nestjs/swagger';
import type { ListResult } from '@app/platform';
import { FOLDER_LIMITS, type DocumentFolder } from '../domain/document-folder.entity';

/** A folder of the library (spec "Document and folder"). */
export interface FolderJson {
  id: string;
  name: string;
  parentId: string | null;
  /** The documents in it the caller can see. */
  documentCount: number;
}

export const toFolderJson = (
  folder: Pick<DocumentFolder, 'id' | 'name' | 'parentId'>,
  documentCount: number,
): FolderJson => ({
  id: folder.id,
  name: folder.name,
  parentId: folder.parentId,
  documentCount,
});

export class FolderView implements FolderJson {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ minLength: 1, maxLength: FOLDER_LIMITS.name }) name: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'null: a top-level folder.' })
  parentId: string | null;
  @ApiProperty({ type: 'integer', description: 'The documents in this folder the caller can see.' })
  documentCount: number;
}

export class FolderListView implements ListResult<FolderJson> {
  @ApiProperty({ type: [FolderView], description: 'Every folder of the agency, by name.' })
  data: FolderView[];
  @ApiProperty({ enum: [false], description: 'Always false: the whole list.' }) hasMore: boolean;
}
