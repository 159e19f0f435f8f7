import { Global, Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { BlobStorage } from './blob-storage';
import { DiskBlobStorage } from './disk-blob-storage';

/** `BlobStorage` for every context (global): the disk store under `.data/blobs`. */
@Global()
@Module({
  providers: [{ provide: BlobStorage, inject: [AppConfig], useFactory: DiskBlobStorage.fromConfig }],
  exports: [BlobStorage],
})
export class BlobsModule {}
