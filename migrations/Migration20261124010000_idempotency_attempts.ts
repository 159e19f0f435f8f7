import { Migration } from '@mikro-orm/migrations';

/**
 * Each claim of an Idempotency-Key is an attempt with its own id. The create's transaction locks
 * its record by that id, so a retry can tell a running attempt (locked) from one that died (not
 * locked, still `in_progress`) and take the latter over at once instead of waiting out the marker.
 */
export class Migration20261124010000_idempotency_attempts extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table idempotency_records add column attempt uuid not null default gen_random_uuid();`,
    );
  }
}
