import { Global, Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { BlobStorage } from './blob-storage';
import { DiskBlobStorage } from './disk-blob-storage';

/**
 * The store `MEDIA_S3_*` asks for: S3 when `MEDIA_S3_BUCKET` is set, else the disk. The AWS SDK is
 * loaded only then (it is large, and every process and test file would pay for it otherwise).
 */
export const blobStorageFor = async (config: AppConfig): Promise<BlobStorage> => {
  if (!config.mediaS3) return DiskBlobStorage.fromConfig(config);
  const { S3BlobStorage } = await import('./s3-blob-storage');
  return S3BlobStorage.fromConfig(config);
};

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
