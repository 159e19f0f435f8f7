import { Global, Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { BlobStorage } from './blob-storage';
import { DiskBlobStorage } from './disk-blob-storage';
import { S3BlobStorage } from './s3-blob-storage';

/** The store `MEDIA_S3_*` asks for: S3 when `MEDIA_S3_BUCKET` is set, else the disk. */
export const blobStorageFor = (config: AppConfig): BlobStorage =>
  config.mediaS3 ? S3BlobStorage.fromConfig(config) : DiskBlobStorage.fromConfig(config);

/**
 * `BlobStorage` for every context (global): documents' files and listing photos, in one S3 bucket
 * when `MEDIA_S3_BUCKET` is set, else on disk under `.data/blobs`.
 */
@Global()
@Module({
  providers: [{ provide: BlobStorage, inject: [AppConfig], useFactory: blobStorageFor }],
  exports: [BlobStorage],
})
export class BlobsModule {}
