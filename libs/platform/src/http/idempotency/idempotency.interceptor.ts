import { EntityManager } from '@mikro-orm/postgresql';
import {
  CallHandler,
  ExecutionContext,
  HttpStatus,
  Injectable,
  Logger,
  NestInterceptor,
  Optional,
} from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import { applyDecorators, UseInterceptors } from '@nestjs/common';
import { ApiConflictResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { from, lastValueFrom, Observable } from 'rxjs';
import { AuthedRequest } from '../../auth/access.decorators';
import { sha256 } from '../../auth/secrets';
import { Clock } from '../../clock/clock';
import { DomainError, validationFailed } from '../../errors/domain-error';
import { isDependencyUnavailable } from '../../errors/unavailable';
import { ErrorEnvelopeView } from '../../errors/error-envelope.view';
import { Metrics } from '../../metrics/metrics';
import { IdempotencyStore } from './idempotency.store';

export interface IdempotencyOptions {
  /** False for answers that carry a secret (spec rule 6): the key is then freed after success. */
  storeResponse: boolean;
}

export const IDEMPOTENT = Reflector.createDecorator<IdempotencyOptions>();
export const MAX_STORED_RESPONSE_BYTES = 512 * 1024;
/** How long a failed create's answer waits for its key to be freed. */
const RELEASE_WAIT_MS = 250;
const HEADER_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** A creating POST that accepts `Idempotency-Key` (marked "Idem" in the spec; the header is documented by openapi.ts). */
export const Idempotent = (options: IdempotencyOptions = { storeResponse: true }) =>
  applyDecorators(
    IDEMPOTENT(options),
    UseInterceptors(IdempotencyInterceptor),
    ApiConflictResponse({
      type: ErrorEnvelopeView,
      description: 'IDEMPOTENCY_KEY_REUSED, IDEMPOTENCY_KEY_IN_PROGRESS',
    }),
  );

/**
 * Step 7 of the pipeline, the spec's seven idempotency rules. The handler runs inside one
 * transaction that first locks the attempt's record and last stores the answer in it, so the
 * answer commits with the create or not at all, and a retry can always tell (IdempotencyStore).
 * 4xx/5xx free the key when the attempt surely did not commit. The store is the database: when it
 * does not answer, the request answers 503 and runs nothing; only a store failing while the
 * database answers lets the request run unprotected (rule 7, INTERFACES.md).
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly log = new Logger('Idempotency');

  constructor(
    private readonly reflector: Reflector,
    private readonly store: IdempotencyStore,
    private readonly em: EntityManager,
    private readonly clock: Clock,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    const options = this.reflector.get(IDEMPOTENT, ctx.getHandler());
    const req = ctx.switchToHttp().getRequest<Request & AuthedRequest & { rawBody?: Buffer }>();
    const header = req.headers['idempotency-key'];
    if (!options || header === undefined || req.principal?.kind !== 'apiKey') return next.handle();
    if (typeof header !== 'string' || !HEADER_PATTERN.test(header)) {
      throw validationFailed([
        { path: 'Idempotency-Key', message: 'must be 1-255 visible ASCII characters' },
      ]);
    }
    const keyId = req.principal.keyId;
    const statusCode =
      this.reflector.get<number | undefined>(HTTP_CODE_METADATA, ctx.getHandler()) ?? HttpStatus.CREATED;
    const requestHash = sha256(`${req.method} ${req.path}\n${req.rawBody?.toString('utf8') ?? ''}`);
    const res = ctx.switchToHttp().getResponse<Response>();
    return from(this.run({ keyId, key: header, requestHash, statusCode, options, res }, next));
  }

  private async run(
    call: {
      keyId: string;
      key: string;
      requestHash: string;
      statusCode: number;
      options: IdempotencyOptions;
      res: Response;
    },
    next: CallHandler,
  ): Promise<unknown> {
    let claim;
    try {
      claim = await this.store.claim(call.keyId, call.key, call.requestHash, this.clock.now());
    } catch (err) {
      // the store is the database: if it does not answer, the create cannot run safely either
      if (isDependencyUnavailable(err)) throw err;
      this.log.warn({ err: String(err) }, 'idempotency store unavailable; request runs unprotected');
      return lastValueFrom(next.handle());
    }
    if (claim.kind === 'reused') {
      throw new DomainError(
        'IDEMPOTENCY_KEY_REUSED',
        'This Idempotency-Key was used for a different request.',
      );
    }
    if (claim.kind === 'in-progress') {
      throw new DomainError(
        'IDEMPOTENCY_KEY_IN_PROGRESS',
        'A request with this Idempotency-Key is still running.',
      );
    }
    if (claim.kind === 'replay') {
      call.res.setHeader('Idempotent-Replayed', 'true');
      this.metrics?.idempotencyReplays.inc();
      return claim.body;
    }
    const { attempt } = claim;
    let locked = false;
    try {
      return await this.em.transactional(async (em) => {
        locked = await this.store.lockAttempt(em, call.keyId, call.key, attempt);
        if (!locked) {
          // a retry took this attempt over while it waited for a connection: it must not create
          throw new DomainError(
            'IDEMPOTENCY_KEY_IN_PROGRESS',
            'A request with this Idempotency-Key is still running.',
          );
        }
        const body = await lastValueFrom(next.handle());
        const serialized = JSON.stringify(body ?? null);
        if (call.options.storeResponse && Buffer.byteLength(serialized) <= MAX_STORED_RESPONSE_BYTES) {
          await this.store.complete(em, call.keyId, call.key, call.statusCode, serialized);
        } else {
          await this.store.release(call.keyId, call.key, attempt, em);
        }
        return body;
      });
    } catch (err) {
      // Safe whatever the outcome: only this attempt's record, only while `in_progress`. Had the
      // COMMIT landed (its answer lost), the record is `done` and stays, so a retry replays; the
      // delete waits for a COMMIT still in flight. An attempt that never locked its record (no
      // connection for its transaction) leaves it to a retry's takeover rather than queue for a
      // connection once more; so does a delete that fails.
      if (locked) {
        const release = this.store
          .release(call.keyId, call.key, attempt)
          .catch((e: unknown) =>
            this.log.warn({ err: String(e) }, 'idempotency key not freed; a retry takes it over'),
          );
        // the answer waits for the key to be freed (a retry right after a 4xx finds it free), but
        // not past RELEASE_WAIT_MS: under a saturated pool the delete goes on after the answer
        await Promise.race([release, new Promise((done) => setTimeout(done, RELEASE_WAIT_MS).unref())]);
      }
      throw err;
    }
  }
}
