import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { LeadAccess, type Statement } from '@app/crm';
import {
  Clock,
  preparedRows,
  Principal,
  transactionSettingsStatement,
  validationFailed,
} from '@app/platform';
import type { QueueDefinition } from '../domain/queue-definition';
import { previewSettings, queuePreviewStatement } from '../domain/queue-preview.sql';
import { previewAnswer, type PreviewRow } from '../views/queue-preview.answer';
import type { QueuePreviewJson } from '../views/queue.view';
import { QueuesService } from './queues.service';

/** A preview gives up after 5 s (issue 13 item 4): 503 through the platform's `isDependencyUnavailable`. */
export const PREVIEW_STATEMENT_TIMEOUT_MS = 5_000;

/**
 * `POST /v1/queues/preview`: a stored queue the caller opens, or an unsaved definition, run as ONE
 * SQL statement (`queuePreviewStatement`) over the leads the caller reaches (LeadAccess). A stored
 * team queue opened by one of its people covers every lead of the organization. No lead is
 * looked at in JS: the statement answers the counts and the rows.
 */
@Injectable()
export class QueuePreviewService {
  constructor(
    private readonly em: EntityManager,
    private readonly queues: QueuesService,
    private readonly access: LeadAccess,
    private readonly clock: Clock,
  ) {}

  async preview(
    actor: Principal,
    input: { queueId?: string; definition?: Record<string, unknown> },
  ): Promise<QueuePreviewJson> {
    if ((input.queueId === undefined) === (input.definition === undefined)) {
      throw validationFailed([
        { path: 'queueId', message: 'Send exactly one of queueId and definition.' },
        { path: 'definition', message: 'Send exactly one of queueId and definition.' },
      ]);
    }
    let definition: QueueDefinition;
    let population: Statement;
    if (input.queueId !== undefined) {
      const queue = await this.queues.openable(actor, input.queueId);
      definition = queue.fullDefinition;
      const wholeAgency = queue.isInCallingTeam(actor.userId, await this.queues.teamIdsOf(actor));
      population = wholeAgency ? this.access.organizationSql(actor, 'l') : this.access.sql(actor, 'l');
    } else {
      // an unsaved definition reads only what the caller reaches, whatever its pool says
      definition = await this.queues.parse(actor, input.definition, { defaultName: 'Preview' });
      population = this.access.sql(actor, 'l');
    }
    const now = this.clock.now();
    const statement = queuePreviewStatement(population, definition, { now, viewerId: actor.userId });
    const rows = await this.em.transactional(async (em) => {
      // above the API's 2.5 s statement bound: the server gives up at 5 s, the client just after;
      // no JIT, and the ranking sort in memory (previewSettings)
      await preparedRows(em, transactionSettingsStatement(previewSettings(PREVIEW_STATEMENT_TIMEOUT_MS)));
      // a stored queue's text is stable, so it is prepared; an unsaved definition's varies with
      // each try, so it runs unnamed rather than collect prepared statements on pooled connections
      return preparedRows<PreviewRow>(em, statement, {
        queryMs: PREVIEW_STATEMENT_TIMEOUT_MS + 500,
        prepare: input.queueId !== undefined,
      });
    });
    return previewAnswer(definition, rows);
  }
}
