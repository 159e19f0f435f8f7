import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { CrmModule } from '@app/crm';
import { IdentityModule } from '@app/identity';
import { DocumentAttachmentsReader } from './application/document-attachments';
import { DocumentPageService } from './application/document-page.service';
import { DocumentsTimelineSource } from './application/documents.timeline-source';
import { LeadDocumentsService } from './application/lead-documents.service';
import { DocumentFolder } from './domain/document-folder.entity';
import { Document } from './domain/document.entity';
import { DocumentPageController } from './http/document-page.controller';
import { LeadDocumentsController } from './http/lead-documents.controller';

export const DOCUMENT_ENTITIES = [Document, DocumentFolder];

/**
 * Documents: the Markdown library of an agency (folders, pins, share links and the public page,
 * lead attachments, search), every route behind an active plan, reads included.
 */
@Module({
  imports: [MikroOrmModule.forFeature(DOCUMENT_ENTITIES), IdentityModule, CrmModule],
  controllers: [DocumentPageController, LeadDocumentsController],
  providers: [DocumentAttachmentsReader, DocumentPageService, DocumentsTimelineSource, LeadDocumentsService],
  exports: [],
})
export class DocumentsModule {}
