import { Migration } from '@mikro-orm/migrations';

/**
 * Publication status `simulated` (docs/decisions/0016-simulated-demo-portal.md): what `published`
 * is on a portal that is sample data (`demoportal`), where a publication sends nothing. Rows the
 * demo portal "published" before are simulated ones.
 */
/** Rows the built-in sample portal answered before `simulated` existed. */
export const SIMULATED_BACKFILL =
  "update listing_publications set status = 'simulated' where portal = 'demoportal' and status = 'published'";

export class Migration20261126060000_publication_simulated extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table listing_publications drop constraint listing_publications_status_check');
    this.addSql(`alter table listing_publications add constraint listing_publications_status_check
      check (status in ('pending', 'published', 'simulated', 'failed', 'unpublished'))`);
    this.addSql(SIMULATED_BACKFILL);
  }

  override async down(): Promise<void> {
    this.addSql("update listing_publications set status = 'published' where status = 'simulated'");
    this.addSql('alter table listing_publications drop constraint listing_publications_status_check');
    this.addSql(`alter table listing_publications add constraint listing_publications_status_check
      check (status in ('pending', 'published', 'failed', 'unpublished'))`);
  }
}
