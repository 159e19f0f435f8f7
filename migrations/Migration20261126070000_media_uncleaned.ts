import { Migration } from '@mikro-orm/migrations';

/**
 * Photos stored before uploads were cleaned (`files` null) are cleaned at their first read and by a
 * periodic sweep (docs/decisions/0019): `media_uncleaned_idx` finds them by hash, and is empty once
 * they all are, so the sweep's query costs nothing from then on.
 */
export class Migration20261126070000_media_uncleaned extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index media_uncleaned_idx on media (sha256) where files is null');
  }

  override async down(): Promise<void> {
    this.addSql('drop index media_uncleaned_idx');
  }
}
