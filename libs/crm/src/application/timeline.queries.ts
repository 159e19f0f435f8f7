import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Principal } from '@app/platform';
import type { Statement } from '../domain/lead-reach';
import { TimelineLead, TimelineSources } from '../extension-points/timeline-source';
import { TimelinePageJson, TimelineRow, toTimelineEntryJson } from '../views/timeline.view';
import { LeadAccess } from './lead-access';

/**
 * A lead's timeline, newest first, offset paging with an exact total: one statement over the
 * entries of every discovered `TimelineSource`. The timeline itself knows no context.
 */
@Injectable()
export class TimelineQueries {
  constructor(
    private readonly em: EntityManager,
    private readonly access: LeadAccess,
    private readonly sources: TimelineSources,
  ) {}

  async page(actor: Principal, leadId: number, offset: number, limit: number): Promise<TimelinePageJson> {
    await this.access.reachableLead(actor, leadId);
    const lead: TimelineLead = { organizationId: actor.organizationId, leadId };
    const entries = this.entries(lead);
    const rows = await this.em.execute<(TimelineRow & { total: string })[]>(
      `select e.type, e.date, e.payload, count(*) over () as total from (${entries.sql}) e
        order by e.date desc, e.tiebreak desc limit ? offset ?`,
      [...entries.params, limit, offset],
    );
    // past the last page the window function has no row to count on
    const total = rows.length > 0 ? Number(rows[0].total) : await this.total(entries);
    const data = rows.map(toTimelineEntryJson);
    const hasMore = offset + data.length < total;
    const maps = await Promise.all(
      this.sources
        .all()
        .flatMap(({ byId }) => (byId ? [byId.fill(lead, data).then((map) => [byId.key, map] as const)] : [])),
    );
    return {
      data,
      hasMore,
      nextOffset: hasMore ? offset + data.length : null,
      total,
      totalIsExact: true,
      tasksById: {},
      dealsById: {},
      ...Object.fromEntries(maps),
    };
  }

  /** Every source's entries as one `type, date, payload, tiebreak` relation. */
  private entries(lead: TimelineLead): Statement {
    const parts = this.sources.all().map((source) => source.entries(lead));
    return {
      sql: parts
        .map(
          (part) =>
            `select s.type::text as type, s.date::timestamptz as date, s.payload::jsonb as payload, s.tiebreak::text as tiebreak
               from (${part.sql}) as s (type, date, payload, tiebreak)`,
        )
        .join('\n union all\n'),
      params: parts.flatMap((part) => part.params),
    };
  }

  private async total(entries: Statement): Promise<number> {
    const [row] = await this.em.execute<{ total: string }[]>(
      `select count(*) as total from (${entries.sql}) e`,
      entries.params,
    );
    return Number(row.total);
  }
}
