import { CreateRequestContext, MikroORM } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { JobName, MINUTE, Periodic } from '@app/platform';

/**
 * Expired share links (INTERFACES.md "Documents"): once `share_expires_at` passes, a document
 * behaves as revoked (`organization`, `share_revoked_at` = `share_expires_at`). Reads apply it
 * to the document they load (`Document.expireShare`); this sweep writes it for every document
 * each minute, in apps/worker with REDIS_URL or on the API's timer without it. It needs nothing
 * but the database (the partial index `documents_share_expiry_idx` finds the rows).
 */
@Injectable()
export class DocumentExpiry {
  constructor(
    // CreateRequestContext (the periodic job) finds the ORM here
    private readonly orm: MikroORM,
    private readonly em: EntityManager,
  ) {}

  @Periodic(JobName.DocumentsExpireShares, MINUTE)
  @CreateRequestContext()
  async expireShares(now: Date): Promise<{ expired: number }> {
    const rows = await this.em.execute<{ id: string }[]>(
      `update documents set visibility = 'organization', share_revoked_at = share_expires_at
        where visibility = 'public' and share_expires_at is not null and share_expires_at <= ?
          and share_revoked_at is null
       returning id`,
      [now],
    );
    return { expired: rows.length };
  }
}
