import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { ApiNullable, IsOmittable } from '@app/platform';
import { FOLDER_LIMITS } from '../../domain/document-folder.entity';
import { DOCUMENT_LIMITS } from '../../domain/document.entity';
import { WHITEBOARD_MAX_ELEMENTS } from '../../domain/whiteboard-outline';

/** Session routes of the library (INTERFACES.md "Documents", session routes table). */

export class CreateFolderDto {
  @ApiProperty({ minLength: 1, maxLength: FOLDER_LIMITS.name })
  @IsString()
  @Length(1, FOLDER_LIMITS.name)
  name: string;

  @ApiNullable(String, { format: 'uuid', description: 'The parent folder; left out or null: at the root.' })
  @IsOptional()
  @IsUUID('all')
  parentId?: string | null;
}

export class ChangeFolderDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: FOLDER_LIMITS.name })
  @IsOmittable()
  @IsString()
  @Length(1, FOLDER_LIMITS.name)
  name?: string;

  @ApiNullable(String, { format: 'uuid', description: 'A new parent folder; null: to the root.' })
  @IsOptional()
  @IsUUID('all')
  parentId?: string | null;
}

export class MoveDocumentDto {
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The folder (one of the agency’s), or null for the root.',
  })
  @ValidateIf((_, value) => value !== null)
  @IsUUID('all')
  folderId: string | null;
}

export class DocumentAssigneesDto {
  @ApiProperty({
    type: [String],
    format: 'uuid',
    maxItems: 100,
    description: 'Members of the agency; replaces the list (informational: they widen nothing).',
  })
  @IsArray()
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true })
  userIds: string[];
}

export class WhiteboardElementDto {
  @ApiProperty({ minLength: 1, maxLength: 50, example: 'text' })
  @IsString()
  @Length(1, 50)
  type: string;

  @ApiPropertyOptional({ maxLength: 1000 })
  @IsOmittable()
  @IsString()
  @MaxLength(1000)
  text?: string;

  @ApiProperty({ type: Number })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  x: number;

  @ApiProperty({ type: Number })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  y: number;
}

export class WhiteboardSceneDto {
  @ApiProperty({ type: [WhiteboardElementDto], maxItems: WHITEBOARD_MAX_ELEMENTS })
  @IsArray()
  @ArrayMaxSize(WHITEBOARD_MAX_ELEMENTS)
  @ValidateNested({ each: true })
  @IsObject({ each: true })
  @Type(() => WhiteboardElementDto)
  elements: WhiteboardElementDto[];
}

export class CreateWhiteboardDto {
  @ApiProperty({ minLength: 1, maxLength: DOCUMENT_LIMITS.title })
  @IsString()
  @Length(1, DOCUMENT_LIMITS.title)
  title: string;

  @ApiProperty({
    type: WhiteboardSceneDto,
    description: 'Kept as sent; the body is its outline (texts by y, then x; one `- ` line each).',
  })
  @IsObject()
  @ValidateNested()
  @Type(() => WhiteboardSceneDto)
  scene: WhiteboardSceneDto;
}

/** The text fields of `POST /documents/files` (the file itself is the `file` part). */
export class UploadDocumentFieldsDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: DOCUMENT_LIMITS.title })
  @IsOmittable()
  @IsString()
  @Length(1, DOCUMENT_LIMITS.title)
  title?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOmittable()
  @IsUUID('all')
  folderId?: string;
}

/** Spec: an uploaded file is at most 25 MB. */
export const UPLOAD_MAX_BYTES = 25 * 1024 * 1024;

export const UPLOAD_FORM_SCHEMA = {
  type: 'object' as const,
  required: ['file'],
  properties: {
    file: { type: 'string' as const, format: 'binary', description: 'The file, at most 25 MB.' },
    title: {
      type: 'string' as const,
      minLength: 1,
      maxLength: DOCUMENT_LIMITS.title,
      description: 'Default: the file’s name.',
    },
    folderId: { type: 'string' as const, format: 'uuid', description: 'One of the agency’s folders.' },
  },
};
