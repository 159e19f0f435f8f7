import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import type { AppConfig, MediaS3Config } from '../config/app-config';
import { assertBlobKey, BlobStorage } from './blob-storage';

/** What the store needs of the SDK client (a fake in unit tests). */
export type S3Sender = Pick<S3Client, 'send'>;

/**
 * Blobs as objects of one S3 bucket (`MEDIA_S3_*`): a blob's key is the object's key, unchanged
 * (keys are single path segments, `BLOB_KEY_PATTERN`). An S3-compatible `endpoint` is addressed
 * path-style (`{endpoint}/{bucket}/{key}`). A PUT is atomic in S3: a reader never sees half a blob.
 */
export class S3BlobStorage extends BlobStorage {
  constructor(
    private readonly client: S3Sender,
    readonly bucket: string,
  ) {
    super();
  }

  static fromConfig(config: AppConfig): S3BlobStorage {
    if (!config.mediaS3) throw new Error('S3BlobStorage needs MEDIA_S3_BUCKET');
    return new S3BlobStorage(new S3Client(s3ClientConfig(config.mediaS3)), config.mediaS3.bucket);
  }

  /** The object a blob key names. */
  objectOf(key: string): { Bucket: string; Key: string } {
    assertBlobKey(key);
    return { Bucket: this.bucket, Key: key };
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ ...this.objectOf(key), Body: bytes, ContentLength: bytes.length }),
    );
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      const object = await this.client.send(new GetObjectCommand(this.objectOf(key)));
      if (!object.Body) return Buffer.alloc(0);
      return Buffer.from(await object.Body.transformToByteArray());
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async has(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand(this.objectOf(key)));
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }

  /** S3 answers a DELETE of a missing object with success too. */
  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand(this.objectOf(key)));
  }
}

/** The SDK client's settings for `MEDIA_S3_*`. */
export function s3ClientConfig(s3: MediaS3Config): S3ClientConfig {
  return {
    region: s3.region,
    ...(s3.endpoint ? { endpoint: s3.endpoint, forcePathStyle: true } : {}),
    ...(s3.credentials ? { credentials: { ...s3.credentials } } : {}),
  };
}

/** GET answers NoSuchKey, HEAD a bare 404 (`NotFound`). */
function isMissing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}
