/**
 * Where uploaded bytes live (a document's file, a listing photo). A key is chosen by the caller (a
 * document id; `media-<sha256>` for a photo); `put` replaces, `get` answers null for an unknown
 * key, `has` tells without reading, `delete` of an unknown key does nothing. Inject the class;
 * `BlobsModule` binds the disk store, or S3 when `MEDIA_S3_BUCKET` is set.
 */
export abstract class BlobStorage {
  abstract put(key: string, bytes: Buffer): Promise<void>;
  abstract get(key: string): Promise<Buffer | null>;
  abstract has(key: string): Promise<boolean>;
  abstract delete(key: string): Promise<void>;
}

/** Keys are single path segments: letters, digits, `.`, `_`, `-` (1-200), never `.` or `..`. */
export const BLOB_KEY_PATTERN = /^(?!\.{1,2}$)[A-Za-z0-9._-]{1,200}$/;

export function assertBlobKey(key: string): void {
  if (!BLOB_KEY_PATTERN.test(key)) throw new Error(`Invalid blob key: ${JSON.stringify(key)}`);
}
