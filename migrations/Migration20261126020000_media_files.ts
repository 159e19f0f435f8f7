import { Migration } from '@mikro-orm/migrations';

/**
 * Clean photos (docs/security/uploaded-images.md): `media.files` lists what is kept of an upload,
 * the full-size clean re-encode and its variants (320, 1024 and 2048 px wide, WebP and JPEG);
 * null on a row stored before, whose blob is the upload as sent until `npm run ops -- media:clean`
 * re-encodes it. `media_clean_hash_idx` finds another agency's clean files of the same upload.
 */
export class Migration20261126020000_media_files extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table media add column files jsonb null');
    this.addSql('create index media_clean_hash_idx on media (sha256) where files is not null');
  }

  override async down(): Promise<void> {
    this.addSql('drop index media_clean_hash_idx');
    this.addSql('alter table media drop column files');
  }
}
