import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { cappedResult, DomainError, isAdmin, ListResult, preparedRows, Principal } from '@app/platform';
import { DealJson, DealParticipantRow, DealRow, toDealRowJson } from '../views/deal.view';
import { DEALS_CAP, DealListFilters, dealListStatement, dealParticipantsStatement } from './deal-list.sql';
import { LeadAccess } from './lead-access';

export type DealListQuery = Omit<DealListFilters, 'organizationId' | 'personId'>;

/** `GET /v1/deals`: one statement for the rows (at most 1,000), one for their participants. */
@Injectable()
export class DealsQueries {
  constructor(
    private readonly em: EntityManager,
    private readonly access: LeadAccess,
  ) {}

  /**
   * Without `leadId`: deals the key's person is on (admins too), or for an admin the deals of
   * `assigneeIds` (a member → 403 ORG_ADMIN_REQUIRED). With `leadId`: every deal of that lead
   * (404 `Lead not found.` when out of reach); `stages` is then ignored, `stage` still applies.
   */
  async list(actor: Principal, query: DealListQuery & { stage?: string }): Promise<ListResult<DealJson>> {
    if (query.assigneeIds?.length && !isAdmin(actor)) {
      throw new DomainError('ORG_ADMIN_REQUIRED', 'Only an organization admin can filter by assignee.');
    }
    if (query.leadId !== undefined) await this.access.reachableLead(actor, query.leadId);
    const stages = [
      ...new Set([
        ...(query.stage ? [query.stage] : []),
        ...(query.leadId === undefined ? (query.stages ?? []) : []),
      ]),
    ];
    const rows = await preparedRows<DealRow>(
      this.em,
      dealListStatement({
        ...query,
        stages,
        organizationId: actor.organizationId,
        personId: actor.userId,
      }),
    );
    const page = cappedResult(rows, DEALS_CAP);
    const participants =
      page.data.length === 0
        ? []
        : await preparedRows<DealParticipantRow>(
            this.em,
            dealParticipantsStatement(page.data.map((row) => row.id)),
          );
    const byDeal = new Map<string, DealParticipantRow[]>();
    for (const row of participants) byDeal.set(row.deal_id, [...(byDeal.get(row.deal_id) ?? []), row]);
    return {
      data: page.data.map((row) => toDealRowJson(row, byDeal.get(row.id) ?? [])),
      hasMore: page.hasMore,
    };
  }
}
