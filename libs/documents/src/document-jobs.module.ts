import { Module } from '@nestjs/common';
import { DocumentExpiry } from './application/document-expiry';

/**
 * The documents' periodic work (the share-expiry sweep), without routes: apps/worker imports
 * this; DocumentsModule brings it into the API.
 */
@Module({
  providers: [DocumentExpiry],
  exports: [DocumentExpiry],
})
export class DocumentJobsModule {}
