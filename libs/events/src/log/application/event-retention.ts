import { CreateRequestContext, MikroORM } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { DAY, JobName, Periodic, preparedRows } from '@app/platform';
import { purgeBatchStatement, purgeTargetsStatement } from './events.sql';

/** Events are kept 30 days (INTERFACES.md "Webhooks and MCP"). */
export const EVENT_RETENTION_MS = 30 * DAY;
/** Events deleted per statement (each its own transaction). */
export const EVENT_PURGE_BATCH = 5_000;
/** Organizations per run, and batches per organization per run: the next run takes the rest. */
const MAX_ORGANIZATIONS = 1_000;
const MAX_BATCHES = 200;
/** A job's statement may take longer than a request's read (2 s). */
const JOB_QUERY = { queryMs: 60_000 };

/**
 * The event log's retention (issue 19 item 1): daily, each organization's events older than 30
 * days are deleted as a whole sequence prefix (up to the highest sequence among its old events),
 * in batches, each batch one statement that also raises the organization's purge point
 * (`org_event_counter.purged_through`), by which `GET /v1/events` tells an expired cursor. Runs in
 * apps/worker with REDIS_URL, on the API's timer without it.
 */
@Injectable()
export class EventRetention {
  constructor(
    // CreateRequestContext (the periodic job) finds the ORM here
    private readonly orm: MikroORM,
    private readonly em: EntityManager,
  ) {}

  @Periodic(JobName.EventsPurge, DAY)
  @CreateRequestContext()
  async purge(now: Date): Promise<{ organizations: number; deleted: number }> {
    const cutoff = new Date(now.getTime() - EVENT_RETENTION_MS);
    const targets = await preparedRows<{ organization_id: string; through: string }>(
      this.em,
      purgeTargetsStatement(cutoff, MAX_ORGANIZATIONS),
      JOB_QUERY,
    );
    let deleted = 0;
    for (const target of targets) {
      for (let batch = 0; batch < MAX_BATCHES; batch++) {
        const [row] = await preparedRows<{ deleted: number }>(
          this.em,
          purgeBatchStatement(target.organization_id, Number(target.through), EVENT_PURGE_BATCH),
          JOB_QUERY,
        );
        deleted += row.deleted;
        if (row.deleted < EVENT_PURGE_BATCH) break;
      }
    }
    return { organizations: targets.length, deleted };
  }
}
