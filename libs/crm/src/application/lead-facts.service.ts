import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Clock, preparedRows } from '@app/platform';
import { leadFactsStatement, leadWorkFactsStatement, lockLeadStatement } from './records.sql';

/** What `facts:rebuild` did. */
export interface FactsRebuildJson {
  organizationId: string;
  /** Leads whose facts were recomputed (every lead of the organization). */
  leads: number;
  /** Leads whose `totalCalls` or `lastCallAt` the rebuild changed. */
  changed: number;
}

/**
 * The lead facts (`lead_facts`, INTERFACES.md "Timeline and facts"): recomputed from the stored
 * rows of the lead in the same transaction as every record write, so arrival order never matters;
 * `rebuild` recomputes a whole organization with the very same statement.
 */
@Injectable()
export class LeadFactsService {
  constructor(
    private readonly em: EntityManager,
    private readonly clock: Clock,
  ) {}

  /**
   * Inside the write's transaction (`em` its fork), after the write: waits for every other write
   * of the lead to end (the lead's row lock), then recomputes from what is stored.
   */
  async recompute(em: EntityManager, organizationId: string, leadId: number, now: Date): Promise<void> {
    await preparedRows(em, lockLeadStatement(organizationId, leadId));
    await preparedRows(em, leadFactsStatement(organizationId, leadId, now));
  }

  /**
   * The facts of the lead's work (pending tasks, next due, overdue from, open deal stages): inside
   * every task and deal write's transaction (`em` its fork), after the write, under the lead's row
   * lock, recomputed from the stored tasks and deals.
   */
  async recomputeWork(em: EntityManager, organizationId: string, leadId: number, now: Date): Promise<void> {
    await preparedRows(em, lockLeadStatement(organizationId, leadId));
    await preparedRows(em, leadWorkFactsStatement(organizationId, leadId, now));
  }

  /** One lead's facts, in a transaction of their own (a record written outside the connector routes). */
  async refresh(organizationId: string, leadId: number): Promise<void> {
    await this.em.fork().transactional((em) => this.recompute(em, organizationId, leadId, this.clock.now()));
  }

  /**
   * `npm run ops -- facts:rebuild --org <id>`: every lead of the organization, the call facts and
   * the work facts each in one statement, both in one transaction.
   */
  async rebuild(organizationId: string): Promise<FactsRebuildJson> {
    const now = this.clock.now();
    const calls = leadFactsStatement(organizationId, null, now);
    const work = leadWorkFactsStatement(organizationId, null, now);
    const [row] = await this.em.fork().transactional(async (em) => {
      const rows = await em.execute<{ leads: string; touched: string }[]>(calls.sql, calls.params);
      await em.execute(work.sql, work.params);
      return rows;
    });
    return { organizationId, leads: Number(row.leads), changed: Number(row.touched) };
  }
}
