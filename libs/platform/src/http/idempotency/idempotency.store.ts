import { CreateRequestContext } from '@mikro-orm/core';
import { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { DAY, MINUTE } from '../../clock/clock';
import { JobName, Periodic } from '../../jobs/periodic';

export const RETENTION_MS = DAY;
export const IN_PROGRESS_MARKER_MS = 5 * MINUTE;

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'replay'; statusCode: number; body: unknown }
  | { kind: 'reused' }
  | { kind: 'in-progress' };

interface RecordRow {
  request_hash: string;
  state: 'in_progress' | 'done';
  status_code: number | null;
  response_body: string | null;
}

/**
 * Idempotency records in PostgreSQL, keyed by (API key, Idempotency-Key). The claim commits on
 * its own; the stored answer is written inside the create's own transaction.
 */
@Injectable()
export class IdempotencyStore {
  constructor(private readonly orm: MikroORM) {}

  async claim(apiKeyId: string, key: string, requestHash: string, now: Date): Promise<Claim> {
    const connection = this.orm.em.getConnection();
    const expiresAt = new Date(now.getTime() + RETENTION_MS);
    const staleBefore = new Date(now.getTime() - IN_PROGRESS_MARKER_MS);
    // a new key, an expired record, or the same request whose marker outlived 5 minutes: ours
    const claimed = await connection.execute<{ key: string }[]>(
      `insert into idempotency_records (api_key_id, key, request_hash, state, started_at, expires_at)
       values (?, ?, ?, 'in_progress', ?, ?)
       on conflict (api_key_id, key) do update
          set request_hash = excluded.request_hash, state = 'in_progress', status_code = null,
              response_body = null, started_at = excluded.started_at, expires_at = excluded.expires_at
        where idempotency_records.expires_at <= excluded.started_at
           or (idempotency_records.state = 'in_progress' and idempotency_records.started_at <= ?
               and idempotency_records.request_hash = excluded.request_hash)
       returning key`,
      [apiKeyId, key, requestHash, now, expiresAt, staleBefore],
    );
    if (claimed.length > 0) return { kind: 'claimed' };
    const [existing] = await connection.execute<RecordRow[]>(
      'select request_hash, state, status_code, response_body from idempotency_records where api_key_id = ? and key = ?',
      [apiKeyId, key],
    );
    if (!existing) return this.claim(apiKeyId, key, requestHash, now); // released meanwhile
    if (existing.request_hash !== requestHash) return { kind: 'reused' };
    if (existing.state === 'in_progress') return { kind: 'in-progress' };
    return {
      kind: 'replay',
      statusCode: existing.status_code ?? 200,
      body: JSON.parse(existing.response_body ?? 'null'),
    };
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

  /** Frees the key: the request failed, or its answer is not to be kept. */
  async release(apiKeyId: string, key: string, em?: EntityManager): Promise<void> {
    const target = em ?? this.orm.em;
    await target
      .getConnection()
      .execute(
        `delete from idempotency_records where api_key_id = ? and key = ? and state = 'in_progress'`,
        [apiKeyId, key],
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
