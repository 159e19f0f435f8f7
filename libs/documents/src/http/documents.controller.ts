import {
  applyDecorators,
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
} from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import {
  ApiBadRequestErrors,
  ApiForbiddenError,
  ApiJsonBodyErrors,
  ApiNotFoundError,
  CurrentPrincipal,
  Idempotent,
  Principal,
  RequireScopes,
  RequiresPlan,
  UuidParam,
} from '@app/platform';
import { DocumentFoldersQueries } from '../application/document-folders.queries';
import { DocumentsQueries } from '../application/documents.queries';
import { DocumentsService } from '../application/documents.service';
import { DocumentPageView, DocumentView } from '../views/document.view';
import { FolderListView } from '../views/folder.view';
import {
  ChangeDocumentDto,
  CreateDocumentDto,
  ListDocumentsQueryDto,
  ShareDocumentDto,
} from './dto/documents.dto';

/** Spec (Documents): every route needs an active plan, reads included. */
const DocumentsRead = () => applyDecorators(RequireScopes('documents:read'), RequiresPlan());
const DocumentsWrite = () => applyDecorators(RequireScopes('documents:write'), RequiresPlan());

const NOT_SEEN =
  "when it is absent, another agency's, or a colleague's private document and the caller is not an admin";
const CREATOR_OR_ADMIN = 'FORBIDDEN: the caller sees the document but neither made it nor is an admin.';

@ApiTags('v1: documents')
@Controller('v1/documents')
export class DocumentsController {
  constructor(
    private readonly documents: DocumentsService,
    private readonly queries: DocumentsQueries,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'List documents',
    description:
      'The documents the caller sees (a member: everything but colleagues’ private documents), most ' +
      'recently changed first unless `sort` says otherwise, `{data, hasMore, nextOffset, total}` with ' +
      'an exact total. Rows carry no body.',
  })
  @DocumentsRead()
  @ApiOkResponse({ type: DocumentPageView })
  @ApiBadRequestErrors(
    'VALIDATION_FAILED also for an unknown `kind`, `visibility`, `scope` or `sort`, `mine` other than ' +
      '`true`, a `folderId` that is neither a UUID nor `root`, or a `q` longer than 128 characters.',
  )
  list(@CurrentPrincipal() actor: Principal, @Query() query: ListDocumentsQueryDto) {
    return this.queries.list(actor, query.listQuery());
  }

  @Post()
  @ApiOperation({
    summary: 'Create a Markdown document',
    description:
      'A `markdown` document, `private` (its creator and admins see it), in no folder. The body is ' +
      'counted in Unicode code points: up to 1,000,000, which fits the 5 MB JSON limit.',
  })
  @DocumentsWrite()
  @Idempotent()
  @ApiCreatedResponse({ type: DocumentView })
  @ApiJsonBodyErrors()
  create(@CurrentPrincipal() actor: Principal, @Body() body: CreateDocumentDto) {
    return this.documents.create(actor, { title: body.title, body: body.body });
  }

  @Get(':documentId')
  @ApiOperation({
    summary: 'Read a document',
    description:
      'The whole body (`truncated` false); a whiteboard’s body is its plain-text outline; pdf and file ' +
      'documents have body `""` and `file {fileName, mimeType}`, never the bytes. A share whose ' +
      '`shareExpiresAt` has passed reads as revoked.',
  })
  @DocumentsRead()
  @ApiOkResponse({ type: DocumentView })
  @ApiBadRequestErrors()
  @ApiNotFoundError('Document', NOT_SEEN)
  get(@CurrentPrincipal() actor: Principal, @Param('documentId', UuidParam) documentId: string) {
    return this.queries.get(actor, documentId);
  }

  @Patch(':documentId')
  @ApiOperation({
    summary: 'Change a document’s title or body',
    description:
      'Whoever sees the document may change it. `body` replaces the whole document; `updatedAt` and ' +
      '`sizeBytes` follow.',
  })
  @DocumentsWrite()
  @ApiOkResponse({ type: DocumentView })
  @ApiJsonBodyErrors('DOCUMENT_KIND_READ_ONLY: a `body` for a whiteboard, pdf or file document.')
  @ApiNotFoundError('Document', NOT_SEEN)
  change(
    @CurrentPrincipal() actor: Principal,
    @Param('documentId', UuidParam) documentId: string,
    @Body() body: ChangeDocumentDto,
  ) {
    return this.documents.change(actor, documentId, { title: body.title, body: body.body });
  }

  @Post(':documentId/share')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Share a document by link',
    description:
      'The document becomes `public` with `shareUrl` `{PUBLIC_BASE_URL}/d/<token>`. Shared already: the ' +
      'same URL (a sent `expiresAt` replaces the old one, none keeps it); after a revoke or expiry a new ' +
      'URL. Creator or admin.',
  })
  @DocumentsWrite()
  @ApiOkResponse({ type: DocumentView })
  @ApiJsonBodyErrors('VALIDATION_FAILED also for an `expiresAt` in the past or without `Z` or an offset.')
  @ApiForbiddenError(CREATOR_OR_ADMIN)
  @ApiNotFoundError('Document', NOT_SEEN)
  share(
    @CurrentPrincipal() actor: Principal,
    @Param('documentId', UuidParam) documentId: string,
    @Body() body: ShareDocumentDto,
  ) {
    return this.documents.share(
      actor,
      documentId,
      body.expiresAt === undefined ? undefined : new Date(body.expiresAt),
    );
  }

  @Delete(':documentId/share')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Revoke a document’s link',
    description:
      'The link stops working; the document becomes `organization` (never private again), ' +
      '`shareRevokedAt` now, `shareUrl` null. A document not shared: 204, nothing changes. Creator or admin.',
  })
  @DocumentsWrite()
  @ApiNoContentResponse({ description: 'Revoked, or nothing to revoke.' })
  @ApiBadRequestErrors()
  @ApiForbiddenError(CREATOR_OR_ADMIN)
  @ApiNotFoundError('Document', NOT_SEEN)
  async revoke(@CurrentPrincipal() actor: Principal, @Param('documentId', UuidParam) documentId: string) {
    await this.documents.revoke(actor, documentId);
  }
}

@ApiTags('v1: documents')
@Controller('v1/document-folders')
export class DocumentFoldersController {
  constructor(private readonly folders: DocumentFoldersQueries) {}

  @Get()
  @ApiOperation({
    summary: 'List document folders',
    description:
      'Every folder of the agency by name, `{data, hasMore: false}`; `documentCount` counts the documents ' +
      'in the folder the caller can see.',
  })
  @DocumentsRead()
  @ApiOkResponse({ type: FolderListView })
  list(@CurrentPrincipal() actor: Principal) {
    return this.folders.list(actor);
  }
}
