import { CreateRequestContext, MikroORM } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { AppConfig, JobName, MINUTE, Outbox, Periodic, SYSTEM_ACTOR } from '@app/platform';
import type { BrochureListing } from '../domain/brochure-listing.entity';
import { BrochureListingRepository } from '../domain/brochure-listing.repository';
import { BrochureRepository } from '../domain/brochure.repository';
import { toBrochureJson } from '../views/brochure.view';
import { brochureEvent } from './brochure-events';

/** Brochures marked per statement, and statements per run (the next run takes the rest). */
export const BROCHURE_EXPIRY_BATCH = 500;
const MAX_BATCHES = 50;

/**
 * Brochures past `expiresAt` (INTERFACES.md "Brochures and network"): reads already show them
 * `expired` from `expiresAt`; this job records it, `expired_at = now`, for every due brochure
 * (`active`, not yet marked; the partial index `brochures_due_idx`). Each batch is one statement
 * in its own transaction, taking rows no other run holds (skip locked), with a `brochure.expired`
 * event per brochure (actor: the system; `previous` the status `active` it had). Each minute, in
 * apps/worker with REDIS_URL or on the API's timer without it.
 */
@Injectable()
export class BrochureExpiry {
  constructor(
    // CreateRequestContext (the periodic job) finds the ORM here
    private readonly orm: MikroORM,
    private readonly em: EntityManager,
    private readonly brochures: BrochureRepository,
    private readonly listings: BrochureListingRepository,
    private readonly outbox: Outbox,
    private readonly config: AppConfig,
  ) {}

  @Periodic(JobName.BrochuresExpireDue, MINUTE)
  @CreateRequestContext()
  async expireDue(now: Date): Promise<{ expired: number }> {
    let expired = 0;
    for (let batch = 0; batch < MAX_BATCHES; batch++) {
      const count = await this.em.transactional((em) => this.expireBatch(em, now));
      expired += count;
      if (count < BROCHURE_EXPIRY_BATCH) break;
    }
    return { expired };
  }

  /** One batch: the statement, then the events of the brochures it marked. */
  private async expireBatch(em: EntityManager, now: Date): Promise<number> {
    const rows = await em.execute<{ id: string; version: number }[]>(
      `with due as (
         select id from brochures
          where status = 'active' and expired_at is null and expires_at <= ?
          order by expires_at
          limit ${BROCHURE_EXPIRY_BATCH}
          for update skip locked
       )
       update brochures b set expired_at = ?, version = b.version + 1
         from due
        where b.id = due.id
       returning b.id, b.version`,
      [now, now],
    );
    if (rows.length === 0) return 0;
    const ids = rows.map((row) => row.id);
    const [brochures, copies] = await Promise.all([
      this.brochures.byIds(ids),
      this.listings.ofBrochures(ids),
    ]);
    const copiesOf = new Map<string, BrochureListing[]>();
    for (const copy of copies)
      copiesOf.set(copy.brochureId, [...(copiesOf.get(copy.brochureId) ?? []), copy]);
    const versions = new Map(rows.map((row) => [row.id, Number(row.version)]));
    const base = this.config.publicBaseUrl;
    for (const brochure of brochures) {
      const object = toBrochureJson(brochure, copiesOf.get(brochure.id) ?? [], now, base);
      this.outbox.record(
        em,
        brochureEvent({
          brochure,
          type: 'brochure.expired',
          object,
          before: { ...object, status: 'active' },
          version: versions.get(brochure.id)!,
          actor: SYSTEM_ACTOR,
          now,
        }),
      );
    }
    return rows.length;
  }
}
