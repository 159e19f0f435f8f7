import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { v7 as uuidv7 } from 'uuid';
import { LeadLink, LeadLinks, ListingReadabilityCheck, UpsertResultJson } from '@app/crm';
import {
  Clock,
  conflict,
  eventActorOf,
  IntegrationPrincipal,
  notFound,
  Outbox,
  preparedRows,
  validationFailed,
  viewChanges,
} from '@app/platform';
import { integrationSource, ViewingKind, ViewingStatus } from '../domain/viewing';
import { toViewingJson, type ViewingRecord } from '../views/viewing.view';
import {
  leadsOfOrganizationStatement,
  viewingByExternalIdStatement,
  viewingUpsertStatement,
} from './viewings.sql';

/** `PUT /integrations/v1/viewings/{externalId}` as the service takes it. */
export interface ViewingInput extends LeadLink {
  propertyListingId?: string;
  otherLeadIds?: number[];
  agentUserId?: string;
  agentEmail?: string;
  viewingAt: string;
  kind: ViewingKind;
  status: ViewingStatus;
  notes?: string;
}

/**
 * Viewings a connector pushes (INTERFACES.md "Ingestion"), upserted by its id into the Viewing
 * aggregate with `source` `integration:<connector>`; one transaction: the lead link (maybe a lead
 * intake), the other leads' check, the upsert. The connector is the record's source of truth, so
 * its status is taken as sent (the status moves of `/v1` apply to people, not to connectors).
 */
@Injectable()
export class ViewingsIngestService {
  constructor(
    private readonly em: EntityManager,
    private readonly links: LeadLinks,
    private readonly listings: ListingReadabilityCheck,
    private readonly clock: Clock,
    private readonly outbox: Outbox,
  ) {}

  store(caller: IntegrationPrincipal, externalId: string, input: ViewingInput): Promise<UpsertResultJson> {
    if (input.agentUserId !== undefined && input.agentEmail !== undefined)
      throw validationFailed([{ path: 'agentEmail', message: 'send agentUserId or agentEmail, not both' }]);
    return this.em.transactional(async (em) => {
      const leadId = await this.links.resolve(caller, {
        leadId: input.leadId,
        contact: input.contact,
        createLead: input.createLead,
      });
      const others = [...new Set(input.otherLeadIds ?? [])].filter((id) => id !== leadId);
      if (others.length > 0) {
        const found = await preparedRows<{ id: string }>(
          em,
          leadsOfOrganizationStatement(caller.organizationId, others),
        );
        if (found.length !== others.length) throw notFound('Lead');
      }
      if (input.propertyListingId !== undefined) {
        await this.listings.assertReadable(caller.organizationId, input.propertyListingId);
      }
      const now = this.clock.now();
      const id = uuidv7();
      // the stored viewing before this write (locked): its event's `previous`
      const [before] = await preparedRows<ViewingRecord>(
        em,
        viewingByExternalIdStatement(caller.organizationId, caller.connector, externalId),
      );
      const [row] = await preparedRows<ViewingRecord & { created: boolean }>(
        em,
        viewingUpsertStatement({
          id,
          organizationId: caller.organizationId,
          leadId,
          connector: caller.connector,
          externalId,
          source: integrationSource(caller.connector),
          actor: caller.actor,
          propertyListingId: input.propertyListingId?.toLowerCase() ?? null,
          otherLeadIds: others,
          agentUserId: input.agentUserId?.toLowerCase() ?? null,
          agentEmail: input.agentEmail ?? null,
          viewingAt: new Date(input.viewingAt),
          kind: input.kind,
          status: input.status,
          notes: input.notes ?? null,
          now,
        }),
      );
      if (!row) throw conflict('This viewing was stored on another lead; it cannot move.');
      this.event(em, caller, row, before, now);
      return { id: row.id, leadId: Number(row.lead_id), created: row.created };
    });
  }

  /**
   * `viewing.created` on the first write; later, when the write changed the viewing (its version
   * moved), `viewing.status_changed` when the status moved, else `viewing.updated`. A write that
   * raced the first one (no row to read before it, yet an update) tells no `previous`.
   */
  private event(
    em: EntityManager,
    caller: IntegrationPrincipal,
    row: ViewingRecord & { created: boolean },
    before: ViewingRecord | undefined,
    now: Date,
  ): void {
    if (!row.created && (before ? before.version === row.version : row.version === 1)) return;
    const object = toViewingJson(row);
    const change = !row.created && before ? viewChanges(toViewingJson(before), object) : undefined;
    const type = row.created
      ? 'viewing.created'
      : change?.changedFields.includes('status')
        ? 'viewing.status_changed'
        : 'viewing.updated';
    this.outbox.record(em, {
      organizationId: caller.organizationId,
      type,
      occurredAt: now,
      subject: { type: 'viewing', id: row.id, leadId: Number(row.lead_id) },
      recordVersion: row.version,
      actor: eventActorOf(caller),
      data: change ? { object, previous: change.previous } : { object },
      ...(change ? { changedFields: change.changedFields } : {}),
    });
  }
}
