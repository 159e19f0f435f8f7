import { CreateRequestContext, MikroORM } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { JobName, MINUTE, Periodic } from '@app/platform';

/** Brochures marked per statement, and statements per run (the next run takes the rest). */
export const BROCHURE_EXPIRY_BATCH = 500;
const MAX_BATCHES = 50;

/**
 * Brochures past `expiresAt` (INTERFACES.md "Brochures and network"): reads already show them
 * `expired` from `expiresAt`; this job records it, `expired_at = now`, for every due brochure
 * (`active`, not yet marked; the partial index `brochures_due_idx`). Each batch is one statement
 * (its own transaction), taking rows no other run holds (skip locked). Each minute, in apps/worker
 * with REDIS_URL or on the API's timer without it.
 */
@Injectable()
export class BrochureExpiry {
  constructor(
    // CreateRequestContext (the periodic job) finds the ORM here
    private readonly orm: MikroORM,
    private readonly em: EntityManager,
  ) {}

  @Periodic(JobName.BrochuresExpireDue, MINUTE)
  @CreateRequestContext()
  async expireDue(now: Date): Promise<{ expired: number }> {
    let expired = 0;
    for (let batch = 0; batch < MAX_BATCHES; batch++) {
      const rows = await this.em.execute<{ id: string }[]>(
        `with due as (
           select id from brochures
            where status = 'active' and expired_at is null and expires_at <= ?
            order by expires_at
            limit ${BROCHURE_EXPIRY_BATCH}
            for update skip locked
         )
         update brochures b set expired_at = ?
           from due
          where b.id = due.id
         returning b.id`,
        [now, now],
      );
      expired += rows.length;
      if (rows.length < BROCHURE_EXPIRY_BATCH) break;
    }
    return { expired };
  }
}
