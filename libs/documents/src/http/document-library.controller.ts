import {
  applyDecorators,
  Body,
  Controller,
  Delete,
  HttpCode,
  Param,
  Patch,
  Post,
  Put,
  UploadedFile,
} from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import {
  ApiBadRequestErrors,
  ApiConflictError,
  ApiForbiddenError,
  ApiJsonBodyErrors,
  ApiNotFoundError,
  CurrentPrincipal,
  MultipartUpload,
  Principal,
  RequiresPlan,
  Session,
  UuidParam,
} from '@app/platform';
import {
  FOLDER_CREATOR_OR_ADMIN,
  FOLDER_NAME_TAKEN,
  FOLDER_NOT_EMPTY,
  DocumentFoldersService,
} from '../application/document-folders.service';
import {
  DocumentLibraryService,
  LISTING_ID_MAX,
  PIN_LIMIT_REACHED,
  UploadedDocumentFile,
} from '../application/document-library.service';
import { DocumentView } from '../views/document.view';
import { FolderView } from '../views/folder.view';
import {
  ChangeFolderDto,
  CreateFolderDto,
  CreateWhiteboardDto,
  DocumentAssigneesDto,
  MoveDocumentDto,
  UPLOAD_FORM_SCHEMA,
  UPLOAD_MAX_BYTES,
  UploadDocumentFieldsDto,
} from './dto/document-library.dto';

/** Every documents route: a session and an active plan (reads included). */
const LibraryRoute = () => applyDecorators(Session(), RequiresPlan());

const CREATOR_OR_ADMIN = 'FORBIDDEN: the caller sees the document but is neither its creator nor an admin.';
const DOCUMENT_NOT_SEEN =
  "when it is absent, another agency's, or a colleague's private document (for a member)";
const FOLDER_NOT_OURS = "when it is absent or another agency's";

@ApiTags('dashboard: documents')
@Controller('document-folders')
export class DocumentFolderSessionController {
  constructor(private readonly folders: DocumentFoldersService) {}

  @Post()
  @ApiOperation({
    summary: 'Create a document folder',
    description:
      'At the root, or under `parentId` (one of the agency’s folders). Folders nest at most 5 levels; a ' +
      'sibling’s name is unique whatever its case.',
  })
  @LibraryRoute()
  @ApiCreatedResponse({ type: FolderView })
  @ApiJsonBodyErrors('VALIDATION_FAILED also when the folder would be deeper than 5 levels.')
  @ApiNotFoundError('Folder', `when \`parentId\` is absent or another agency's`)
  @ApiConflictError(`CONFLICT: \`${FOLDER_NAME_TAKEN}\``)
  create(@CurrentPrincipal() actor: Principal, @Body() body: CreateFolderDto) {
    return this.folders.create(actor, body);
  }

  @Patch(':folderId')
  @ApiOperation({
    summary: 'Rename or move a document folder',
    description:
      'Its creator or an admin. `parentId` null moves it to the root; never under itself or one of its ' +
      'subfolders, and its deepest subfolder stays within 5 levels.',
  })
  @LibraryRoute()
  @ApiOkResponse({ type: FolderView })
  @ApiJsonBodyErrors(
    'VALIDATION_FAILED also for a cycle (`parentId` the folder or one of its subfolders) and for more than 5 levels.',
  )
  @ApiForbiddenError(`FORBIDDEN: \`${FOLDER_CREATOR_OR_ADMIN}\``)
  @ApiNotFoundError('Folder', `${FOLDER_NOT_OURS} (the folder or \`parentId\`)`)
  @ApiConflictError(`CONFLICT: \`${FOLDER_NAME_TAKEN}\``)
  change(
    @CurrentPrincipal() actor: Principal,
    @Param('folderId', UuidParam) folderId: string,
    @Body() body: ChangeFolderDto,
  ) {
    return this.folders.change(actor, folderId, body);
  }

  @Delete(':folderId')
  @ApiOperation({
    summary: 'Delete an empty document folder',
    description: 'Its creator or an admin; only when it holds no document (anyone’s) and no subfolder.',
  })
  @HttpCode(204)
  @LibraryRoute()
  @ApiNoContentResponse({ description: 'The folder is gone.' })
  @ApiBadRequestErrors()
  @ApiForbiddenError(`FORBIDDEN: \`${FOLDER_CREATOR_OR_ADMIN}\``)
  @ApiNotFoundError('Folder', FOLDER_NOT_OURS)
  @ApiConflictError(`CONFLICT: \`${FOLDER_NOT_EMPTY}\``)
  async delete(@CurrentPrincipal() actor: Principal, @Param('folderId', UuidParam) folderId: string) {
    await this.folders.delete(actor, folderId);
  }
}

@ApiTags('dashboard: documents')
@Controller('documents')
export class DocumentLibraryController {
  constructor(private readonly library: DocumentLibraryService) {}

  @Post('files')
  @ApiOperation({
    summary: 'Upload a file as a document',
    description:
      'Multipart: `file` (at most 25 MB), `title?` (default: the file’s name), `folderId?`. A private ' +
      'document of kind `pdf` when the bytes start `%PDF-`, else `file`; body `""`, `sizeBytes` the ' +
      'kept file’s size, `file {fileName, mimeType}`. The bytes are kept and never returned. An ' +
      'image (told by its bytes, not its name or declared type) is kept as a clean re-encode ' +
      '(orientation applied, sRGB, no EXIF, XMP, IPTC or ICC metadata; `mimeType` its real type): ' +
      'JPEG, PNG and WebP in their own type; TIFF as TIFF with every page; GIF with every frame; AVIF ' +
      'as JPEG (PNG when it has transparency). Over 64 megapixels (all frames; a TIFF 64 a page, 512 ' +
      'in all), not decodable, or an image whose location cannot be removed here (HEIC, camera raw ' +
      'files) → 400 VALIDATION_FAILED naming `file`. Other files (PDF, SVG, video, …) are kept as sent.',
  })
  @LibraryRoute()
  @MultipartUpload({
    field: 'file',
    maxBytes: UPLOAD_MAX_BYTES,
    maxLabel: '25 MB',
    schema: UPLOAD_FORM_SCHEMA,
  })
  @ApiCreatedResponse({ type: DocumentView })
  @ApiBadRequestErrors(
    'VALIDATION_FAILED also when the `file` part is missing, or an image is over 64 megapixels, cannot be decoded, or is a HEIC or camera raw file (`HEIC photos cannot be cleaned of their location; send JPEG or PNG`).',
  )
  @ApiNotFoundError('Folder', `when \`folderId\` is absent or another agency's`)
  upload(
    @CurrentPrincipal() actor: Principal,
    @UploadedFile() file: UploadedDocumentFile | undefined,
    @Body() fields: UploadDocumentFieldsDto,
  ) {
    return this.library.upload(actor, file, fields);
  }

  @Post('whiteboards')
  @ApiOperation({
    summary: 'Create a whiteboard document',
    description:
      'A private document of kind `whiteboard`; the scene (at most 5,000 elements) is kept and its ' +
      'body is the outline: the element texts ordered by `y`, then `x`, one `- ` line each. The body ' +
      'cannot be edited (DOCUMENT_KIND_READ_ONLY).',
  })
  @LibraryRoute()
  @ApiCreatedResponse({ type: DocumentView })
  @ApiJsonBodyErrors()
  createWhiteboard(@CurrentPrincipal() actor: Principal, @Body() body: CreateWhiteboardDto) {
    return this.library.createWhiteboard(actor, body);
  }

  @Put(':documentId/folder')
  @ApiOperation({
    summary: 'Move a document to a folder',
    description: 'Its creator or an admin; `folderId` null moves it to the root.',
  })
  @LibraryRoute()
  @ApiOkResponse({ type: DocumentView })
  @ApiJsonBodyErrors()
  @ApiForbiddenError(CREATOR_OR_ADMIN)
  @ApiNotFoundError('Document', DOCUMENT_NOT_SEEN)
  @ApiNotFoundError('Folder', FOLDER_NOT_OURS)
  move(
    @CurrentPrincipal() actor: Principal,
    @Param('documentId', UuidParam) documentId: string,
    @Body() body: MoveDocumentDto,
  ) {
    return this.library.move(actor, documentId, body.folderId);
  }

  @Put(':documentId/pin')
  @ApiOperation({
    summary: 'Pin a document',
    description:
      'Pins are personal (the list’s `scope=pinned`); anyone who sees the document; pinning again ' +
      'changes nothing. At most 100 pins a person.',
  })
  @HttpCode(204)
  @LibraryRoute()
  @ApiNoContentResponse({ description: 'Pinned.' })
  @ApiBadRequestErrors()
  @ApiNotFoundError('Document', DOCUMENT_NOT_SEEN)
  @ApiConflictError(`CONFLICT: \`${PIN_LIMIT_REACHED}\``)
  async pin(@CurrentPrincipal() actor: Principal, @Param('documentId', UuidParam) documentId: string) {
    await this.library.pin(actor, documentId);
  }

  @Delete(':documentId/pin')
  @ApiOperation({ summary: 'Unpin a document', description: 'Also 204 when it was not pinned.' })
  @HttpCode(204)
  @LibraryRoute()
  @ApiNoContentResponse({ description: 'Not pinned (any more).' })
  @ApiBadRequestErrors()
  @ApiNotFoundError('Document', DOCUMENT_NOT_SEEN)
  async unpin(@CurrentPrincipal() actor: Principal, @Param('documentId', UuidParam) documentId: string) {
    await this.library.unpin(actor, documentId);
  }

  @Put(':documentId/assignees')
  @ApiOperation({
    summary: 'Set a document’s assignees',
    description: 'Its creator or an admin; replaces the list. Informational: assignees widen nothing.',
  })
  @LibraryRoute()
  @ApiOkResponse({ type: DocumentView })
  @ApiJsonBodyErrors('VALIDATION_FAILED also for a `userIds` entry that is not a member of the agency.')
  @ApiForbiddenError(CREATOR_OR_ADMIN)
  @ApiNotFoundError('Document', DOCUMENT_NOT_SEEN)
  setAssignees(
    @CurrentPrincipal() actor: Principal,
    @Param('documentId', UuidParam) documentId: string,
    @Body() body: DocumentAssigneesDto,
  ) {
    return this.library.setAssignees(actor, documentId, body.userIds);
  }

  @Put(':documentId/listings/:listingId')
  @ApiOperation({
    summary: 'Attach a listing to a document',
    description:
      'Whoever may edit the document. The listing id is stored as sent (1-100 characters) and fills ' +
      '`attachedListingIds` and `attachedListingCount`; attaching again changes nothing.',
  })
  @LibraryRoute()
  @ApiParam({ name: 'listingId', schema: { type: 'string', minLength: 1, maxLength: LISTING_ID_MAX } })
  @ApiOkResponse({ type: DocumentView })
  @ApiBadRequestErrors()
  @ApiNotFoundError('Document', DOCUMENT_NOT_SEEN)
  attachListing(
    @CurrentPrincipal() actor: Principal,
    @Param('documentId', UuidParam) documentId: string,
    @Param('listingId') listingId: string,
  ) {
    return this.library.attachListing(actor, documentId, listingId);
  }

  @Delete(':documentId/listings/:listingId')
  @ApiOperation({
    summary: 'Detach a listing from a document',
    description: 'Whoever may edit the document; not attached → the document unchanged.',
  })
  @LibraryRoute()
  @ApiParam({ name: 'listingId', schema: { type: 'string', minLength: 1, maxLength: LISTING_ID_MAX } })
  @ApiOkResponse({ type: DocumentView })
  @ApiBadRequestErrors()
  @ApiNotFoundError('Document', DOCUMENT_NOT_SEEN)
  detachListing(
    @CurrentPrincipal() actor: Principal,
    @Param('documentId', UuidParam) documentId: string,
    @Param('listingId') listingId: string,
  ) {
    return this.library.detachListing(actor, documentId, listingId);
  }

  @Delete(':documentId')
  @ApiOperation({
    summary: 'Delete a document',
    description:
      'Its creator or an admin. Its pins and lead attachments go with it; its share link answers 410 ' +
      'from now on; an uploaded file’s bytes are removed.',
  })
  @HttpCode(204)
  @LibraryRoute()
  @ApiNoContentResponse({ description: 'The document is gone.' })
  @ApiBadRequestErrors()
  @ApiForbiddenError(CREATOR_OR_ADMIN)
  @ApiNotFoundError('Document', DOCUMENT_NOT_SEEN)
  async delete(@CurrentPrincipal() actor: Principal, @Param('documentId', UuidParam) documentId: string) {
    await this.library.delete(actor, documentId);
  }
}
