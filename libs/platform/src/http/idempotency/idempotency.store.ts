import { randomUUID } from 'node:crypto';
import { CreateRequestContext } from '@mikro-orm/core';
import { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { DAY, MINUTE } from '../../clock/clock';
import { JobName, Periodic } from '../../jobs/periodic';

export const RETENTION_MS = DAY;

export type Claim =
  | { kind: 'claimed'; attempt: string }
  | { kind: 'replay'; statusCode: number; body: unknown }
  | { kind: 'reused' }
  | { kind: 'in-progress' };

/**
 * How long a fresh attempt may take to lock its record (a pooled connection, then BEGIN) before a
 * retry may take over an unlocked `in_progress` record. A takeover is always safe (the first attempt
 * then finds its id gone and creates nothing); the grace only spares needless ones.
 */
export const TAKEOVER_GRACE_MS = 3_000;

interface RecordRow {
  request_hash: string;
  state: 'in_progress' | 'done';
  status_code: number | null;
  response_body: string | null;
  started_at: Date | string;
  expires_at: Date | string;
  attempt: string;
}

/**
 * Idempotency records in PostgreSQL, keyed by (API key, Idempotency-Key). The claim commits on
 * its own; the create's transaction then locks the record by its attempt id and stores the answer
 * in it, so the answer commits with the create or not at all. Whatever happens to the first
 * attempt (an error, a lost connection, a crash, a COMMIT whose outcome is unknown), a retry
 * finds out from the record: a stored answer is replayed; a record still locked is running (409);
 * an unlocked `in_progress` record belongs to an attempt that ended without committing, and is
 * taken over. No path creates twice.
 */
@Injectable()
export class IdempotencyStore {
  constructor(private readonly orm: MikroORM) {}

  async claim(apiKeyId: string, key: string, requestHash: string, now: Date): Promise<Claim> {
    const connection = this.orm.em.getConnection();
    const attempt = randomUUID();
    const expiresAt = new Date(now.getTime() + RETENTION_MS);
    const inserted = await connection.execute<{ key: string }[]>(
      `insert into idempotency_records (api_key_id, key, request_hash, state, started_at, expires_at, attempt)
       values (?, ?, ?, 'in_progress', ?, ?, ?)
       on conflict (api_key_id, key) do nothing
       returning key`,
      [apiKeyId, key, requestHash, now, expiresAt, attempt],
    );
    if (inserted.length > 0) return { kind: 'claimed', attempt };
    // an unlocked record: its attempt is not inside a create's transaction right now
    const [unlocked] = await connection.execute<RecordRow[]>(
      `select request_hash, state, status_code, response_body, started_at, expires_at, attempt
         from idempotency_records where api_key_id = ? and key = ? for update skip locked`,
      [apiKeyId, key],
    );
    if (!unlocked) {
      const [held] = await connection.execute<Pick<RecordRow, 'request_hash'>[]>(
        'select request_hash from idempotency_records where api_key_id = ? and key = ?',
        [apiKeyId, key],
      );
      if (!held) return this.claim(apiKeyId, key, requestHash, now); // released meanwhile
      return held.request_hash === requestHash ? { kind: 'in-progress' } : { kind: 'reused' };
    }
    const expired = new Date(unlocked.expires_at) <= now;
    if (!expired && unlocked.request_hash !== requestHash) return { kind: 'reused' };
    if (!expired && unlocked.state === 'done') {
      return {
        kind: 'replay',
        statusCode: unlocked.status_code ?? 200,
        body: JSON.parse(unlocked.response_body ?? 'null'),
      };
    }
    const abandoned = expired || new Date(unlocked.started_at).getTime() <= now.getTime() - TAKEOVER_GRACE_MS;
    if (!abandoned) return { kind: 'in-progress' };
    // take it over, unless another retry did first or the attempt locked it meanwhile
    const takenOver = await connection.execute<{ key: string }[]>(
      `update idempotency_records r
          set request_hash = ?, state = 'in_progress', status_code = null, response_body = null,
              started_at = ?, expires_at = ?, attempt = ?
         from (select api_key_id, key from idempotency_records
                where api_key_id = ? and key = ? and attempt = ? for update skip locked) mine
        where r.api_key_id = mine.api_key_id and r.key = mine.key
        returning r.key`,
      [requestHash, now, expiresAt, attempt, apiKeyId, key, unlocked.attempt],
    );
    return takenOver.length > 0 ? { kind: 'claimed', attempt } : { kind: 'in-progress' };
  }

  /**
   * First statement of the create's transaction: locks the record while this attempt owns it. False
   * when a retry took the attempt over meanwhile: the create must not run.
   */
  async lockAttempt(em: EntityManager, apiKeyId: string, key: string, attempt: string): Promise<boolean> {
    const rows = await em.getConnection().execute<{ key: string }[]>(
      `select key from idempotency_records
          where api_key_id = ? and key = ? and attempt = ? and state = 'in_progress' for update`,
      [apiKeyId, key, attempt],
      'all',
      em.getTransactionContext(),
    );
    return rows.length > 0;
  }

  /** Runs on the create's transactional entity manager: the answer commits with the create. */
  async complete(
    em: EntityManager,
    apiKeyId: string,
    key: string,
    statusCode: number,
    body: string,
  ): Promise<void> {
    await em
      .getConnection()
      .execute(
        `update idempotency_records set state = 'done', status_code = ?, response_body = ? where api_key_id = ? and key = ?`,
        [statusCode, body, apiKeyId, key],
        'run',
        em.getTransactionContext(),
      );
  }

  /** Frees the key: this attempt did not commit, or its answer is not to be kept. */
  async release(apiKeyId: string, key: string, attempt: string, em?: EntityManager): Promise<void> {
    const target = em ?? this.orm.em;
    await target.getConnection().execute(
      `delete from idempotency_records
          where api_key_id = ? and key = ? and attempt = ? and state = 'in_progress'`,
      [apiKeyId, key, attempt],
      'run',
      em?.getTransactionContext(),
    );
  }

  /** Spec: responses are kept 24 hours. */
  @Periodic(JobName.PurgeIdempotency, 10 * MINUTE)
  @CreateRequestContext()
  async purgeExpired(now: Date): Promise<{ purged: number }> {
    const rows = await this.orm.em
      .getConnection()
      .execute<{ key: string }[]>('delete from idempotency_records where expires_at <= ? returning key', [
        now,
      ]);
    return { purged: rows.length };
  }
}
