import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { AppConfig } from '../config/app-config';
import { assertBlobKey, BlobStorage } from './blob-storage';

/**
 * Blobs as files under one directory (`.data/blobs` by default: next to the embedded database's
 * `.data/postgres`, i.e. `dirname(EMBEDDED_DATA_DIR)/blobs`). A write goes to a temporary file
 * and is renamed into place, so a reader never sees half a blob.
 */
export class DiskBlobStorage extends BlobStorage {
  constructor(readonly root: string) {
    super();
  }

  static fromConfig(config: AppConfig): DiskBlobStorage {
    return new DiskBlobStorage(join(dirname(config.embeddedDataDir), 'blobs'));
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(this.root, { recursive: true });
    const temporary = join(this.root, `.${key}.${randomUUID()}.tmp`);
    try {
      await writeFile(temporary, bytes);
      await rename(temporary, target);
    } catch (err) {
      await rm(temporary, { force: true });
      throw err;
    }
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.pathOf(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async has(key: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isFile();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  private pathOf(key: string): string {
    assertBlobKey(key);
    return join(this.root, key);
  }
}
