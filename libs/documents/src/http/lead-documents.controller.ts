import { Body, Controller, Delete, Get, HttpCode, Param, Put } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  ApiBadRequestErrors,
  ApiJsonBodyErrors,
  ApiNotFoundError,
  CurrentPrincipal,
  IntParam,
  Principal,
  RequireScopes,
  RequiresPlan,
  UuidParam,
} from '@app/platform';
import { LeadDocumentsService } from '../application/lead-documents.service';
import { DocumentView } from '../views/document.view';
import { LeadDocumentListView } from '../views/lead-document.view';

/** `PUT` takes `{}`: the attachment has no fields of its own (unknown fields are dropped). */
export class AttachDocumentDto {}

const LEAD_REACH = "when it is absent, another agency's, or a member is not assigned to it";
const DOCUMENT_REACH = "when it is absent, another agency's, or a colleague's private document (members)";

@ApiTags('v1: documents')
@Controller('v1/leads/:leadId/documents')
export class LeadDocumentsController {
  constructor(private readonly leadDocuments: LeadDocumentsService) {}

  @Get()
  @RequireScopes('documents:read')
  @RequiresPlan()
  @ApiOperation({
    summary: 'List the documents attached to a lead',
    description:
      'The 50 most recently attached documents the caller can see (a member: not a colleague’s private ' +
      'one), each row with who attached it first and when; `hasMore` when more are attached.',
  })
  @ApiParam({ name: 'leadId', type: 'integer' })
  @ApiOkResponse({ type: LeadDocumentListView })
  @ApiBadRequestErrors()
  @ApiNotFoundError('Lead', LEAD_REACH)
  list(@CurrentPrincipal() actor: Principal, @Param('leadId', IntParam) leadId: number) {
    return this.leadDocuments.list(actor, leadId);
  }

  @Put(':documentId')
  @RequireScopes('documents:write')
  @RequiresPlan()
  @ApiOperation({
    summary: 'Attach a document to a lead',
    description:
      'Body `{}`. Changes no visibility. Repeating it keeps the first receipt (`attachedBy`, `attachedAt`). ' +
      'Answers the Document: `attachedLeadCount` counts every lead, `attachedLeadIds` only the leads the ' +
      'caller reaches. The lead’s timeline gets a `document {documentId, action: attached}` entry when it ' +
      'was not attached yet.',
  })
  @ApiParam({ name: 'leadId', type: 'integer' })
  @ApiOkResponse({ type: DocumentView })
  @ApiJsonBodyErrors()
  @ApiNotFoundError('Lead', LEAD_REACH)
  @ApiNotFoundError('Document', DOCUMENT_REACH)
  attach(
    @CurrentPrincipal() actor: Principal,
    @Param('leadId', IntParam) leadId: number,
    @Param('documentId', UuidParam) documentId: string,
    @Body() _body: AttachDocumentDto,
  ) {
    return this.leadDocuments.attach(actor, leadId, documentId);
  }

  @Delete(':documentId')
  @HttpCode(204)
  @RequireScopes('documents:write')
  @RequiresPlan()
  @ApiOperation({
    summary: 'Detach a document from a lead',
    description:
      '204, also when it was not attached. The lead’s timeline gets a `document {documentId, action: ' +
      'detached}` entry only when an attachment was removed.',
  })
  @ApiParam({ name: 'leadId', type: 'integer' })
  @ApiNoContentResponse({ description: 'Detached (or it was not attached).' })
  @ApiBadRequestErrors()
  @ApiNotFoundError('Lead', LEAD_REACH)
  @ApiNotFoundError('Document', DOCUMENT_REACH)
  async detach(
    @CurrentPrincipal() actor: Principal,
    @Param('leadId', IntParam) leadId: number,
    @Param('documentId', UuidParam) documentId: string,
  ): Promise<void> {
    await this.leadDocuments.detach(actor, leadId, documentId);
  }
}
