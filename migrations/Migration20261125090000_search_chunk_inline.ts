import { Migration } from '@mikro-orm/migrations';

/**
 * Passages stored whole in their row (README "Search", "Index"): `search_chunk` toasts a row only
 * past 8,160 bytes (`toast_tuple_target`), so a long passage's tsvector stays in the row. With the
 * default (a row past about 2 KB: a passage of a thousand characters or more, most transcripts), the
 * tsvector went out of line, and the retrieve statement fetched it from the TOAST table at every
 * use: the match's recheck, `ts_rank_cd`, each held-branch test. A passage is at most 2,000
 * characters and its tsvector about 3 KB, so every row fits. Rows written before keep their storage
 * until rewritten (`npm run ops -- search:reindex --org <id>` writes them again).
 */
export class Migration20261125090000_search_chunk_inline extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table search_chunk set (toast_tuple_target = 8160)');
  }

  override async down(): Promise<void> {
    this.addSql('alter table search_chunk reset (toast_tuple_target)');
  }
}
