import type { BlobStorage, CleanImageFile, ProcessedImage } from '@app/platform';
import { mediaFileKey, type MediaFile, type MediaFiles } from '../domain/media.entity';

const described = (file: CleanImageFile): MediaFile => ({
  width: file.width,
  height: file.height,
  mimeType: file.mimeType,
  sizeBytes: file.bytes.length,
  sha256: file.sha256,
});

/** Stores an upload's processed files under its hash (`mediaFileKey`); their record for `media.files`. */
export async function storeMediaFiles(
  blobs: BlobStorage,
  uploadSha256: string,
  processed: ProcessedImage,
): Promise<MediaFiles> {
  const files: MediaFiles = {
    full: described(processed.full),
    variants: processed.variants.map(described),
  };
  await blobs.put(mediaFileKey(uploadSha256, files.full, true), processed.full.bytes);
  for (const [i, variant] of processed.variants.entries()) {
    await blobs.put(mediaFileKey(uploadSha256, files.variants[i], false), variant.bytes);
  }
  return files;
}
