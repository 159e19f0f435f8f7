/** One brochure's views gathered since the last flush: how many, and when the last one was. */
export interface GatheredViews {
  id: string;
  n: number;
  at: string;
}

export interface CountedViewsRow {
  id: string;
  view_count: number;
  last_viewed_at: Date | string;
  version: number;
  previous_view_count: number;
  previous_last_viewed_at: Date | string | null;
}

/**
 * Adds the gathered views of many brochures in one statement: each row locked in id order (two
 * processes flushing the same brochures never deadlock), its count raised by what was gathered,
 * `lastViewedAt` the latest view, one version per flush. A brochure deleted since is skipped.
 */
export const addGatheredViews = (views: GatheredViews[]) => ({
  sql: `with gathered as (
          select v.id, v.n, v.at from jsonb_to_recordset(?::jsonb) as v(id uuid, n int, at timestamptz)
        ), previous as (
          select b.id, b.view_count, b.last_viewed_at from brochures b
           where b.id in (select id from gathered) order by b.id for update
        )
        update brochures b
           set view_count = b.view_count + g.n,
               last_viewed_at = greatest(coalesce(b.last_viewed_at, g.at), g.at),
               version = b.version + 1
          from gathered g join previous p on p.id = g.id
         where b.id = g.id
        returning b.id, b.view_count, b.last_viewed_at, b.version,
                  p.view_count as previous_view_count, p.last_viewed_at as previous_last_viewed_at`,
  params: [JSON.stringify(views)],
});
