import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { CrmModule } from '@app/crm';
import { IdentityModule } from '@app/identity';
import { BlobsModule } from '@app/platform';
import { DocumentAttachmentsReader } from './application/document-attachments';
import { DocumentFoldersQueries } from './application/document-folders.queries';
import { DocumentFoldersService } from './application/document-folders.service';
import { DocumentLibraryService } from './application/document-library.service';
import { DocumentPageService } from './application/document-page.service';
import { DocumentsQueries } from './application/documents.queries';
import { DocumentsService } from './application/documents.service';
import { DocumentsTimelineSource } from './application/documents.timeline-source';
import { LeadDocumentsService } from './application/lead-documents.service';
import { DocumentJobsModule } from './document-jobs.module';
import { DocumentFolder } from './domain/document-folder.entity';
import { Document } from './domain/document.entity';
import {
  DocumentFolderSessionController,
  DocumentLibraryController,
} from './http/document-library.controller';
import { DocumentPageController } from './http/document-page.controller';
import { DocumentFoldersController, DocumentsController } from './http/documents.controller';
import { LeadDocumentsController } from './http/lead-documents.controller';

export const DOCUMENT_ENTITIES = [Document, DocumentFolder];

/**
 * Documents: the Markdown library of an agency (folders, pins, share links and the public page,
 * lead attachments, search), every route behind an active plan, reads included.
 */
@Module({
  imports: [
    MikroOrmModule.forFeature(DOCUMENT_ENTITIES),
    BlobsModule,
    CrmModule,
    DocumentJobsModule,
    IdentityModule,
  ],
  controllers: [
    DocumentFolderSessionController,
    DocumentFoldersController,
    DocumentLibraryController,
    DocumentPageController,
    DocumentsController,
    LeadDocumentsController,
  ],
  providers: [
    DocumentAttachmentsReader,
    DocumentFoldersQueries,
    DocumentFoldersService,
    DocumentLibraryService,
    DocumentPageService,
    DocumentsQueries,
    DocumentsService,
    DocumentsTimelineSource,
    LeadDocumentsService,
  ],
  exports: [],
})
export class DocumentsModule {}
