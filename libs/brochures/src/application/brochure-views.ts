import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { AppConfig, BufferedWrites, Outbox, SYSTEM_ACTOR, WriteBuffer } from '@app/platform';
import type { BrochureListing } from '../domain/brochure-listing.entity';
import type { Brochure } from '../domain/brochure.entity';
import { toBrochureJson } from '../views/brochure.view';
import { brochureEvent } from './brochure-events';
import { addGatheredViews, type CountedViewsRow } from './brochure-views.sql';

/** Views are written once a second: `viewCount` lags the page by at most that. */
export const VIEWS_FLUSH_MS = 1_000;

/** A brochure's views since the last flush, and the page as the last of them read it. */
interface Gathered {
  count: number;
  lastAt: Date;
  brochure: Brochure;
  listings: BrochureListing[];
}

/**
 * Counted views of brochure pages (docs/reliability.md, "Counters without a hot row"): a view adds
 * to a count in memory; once a second one statement adds every brochure's count to its row and
 * the same transaction records one `brochure.viewed` per brochure (actor: the system) with the
 * counts before and after. Parallel opens of one page no longer queue on its row lock.
 */
@Injectable()
export class BrochureViews {
  private readonly gathered: WriteBuffer<string, Gathered>;

  constructor(
    private readonly em: EntityManager,
    private readonly outbox: Outbox,
    private readonly config: AppConfig,
    buffers: BufferedWrites,
  ) {
    this.gathered = buffers.register({
      name: 'brochure views',
      everyMs: VIEWS_FLUSH_MS,
      merge: (older, newer) => ({ ...newer, count: older.count + newer.count }),
      write: (batch) => this.write(batch),
    });
  }

  record(brochure: Brochure, listings: BrochureListing[], at: Date): void {
    this.gathered.add(brochure.id, { count: 1, lastAt: at, brochure, listings });
  }

  private async write(batch: ReadonlyMap<string, Gathered>): Promise<void> {
    const views = [...batch].map(([id, g]) => ({ id, n: g.count, at: g.lastAt.toISOString() }));
    await this.em.fork().transactional(async (em) => {
      const statement = addGatheredViews(views);
      const rows = await em.execute<CountedViewsRow[]>(statement.sql, statement.params);
      for (const row of rows) {
        const { brochure, listings, lastAt } = batch.get(row.id)!;
        const page = toBrochureJson(brochure, listings, lastAt, this.config.publicBaseUrl);
        const before = {
          ...page,
          viewCount: Number(row.previous_view_count),
          lastViewedAt: row.previous_last_viewed_at
            ? new Date(row.previous_last_viewed_at).toISOString()
            : null,
        };
        const object = {
          ...page,
          viewCount: Number(row.view_count),
          lastViewedAt: new Date(row.last_viewed_at).toISOString(),
        };
        this.outbox.record(
          em,
          brochureEvent({
            brochure,
            type: 'brochure.viewed',
            object,
            before,
            version: row.version,
            actor: SYSTEM_ACTOR,
            now: lastAt,
          }),
        );
      }
    });
  }
}
