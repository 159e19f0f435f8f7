import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { v7 as uuidv7 } from 'uuid';
import { LeadLink, LeadLinks, ListingReadabilityCheck, UpsertResultJson } from '@app/crm';
import {
  Clock,
  conflict,
  IntegrationPrincipal,
  notFound,
  preparedRows,
  validationFailed,
} from '@app/platform';
import { integrationSource, ViewingKind, ViewingStatus } from '../domain/viewing';
import { leadsOfOrganizationStatement, viewingUpsertStatement } from './viewings.sql';

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
      const [row] = await preparedRows<{ id: string; lead_id: string; created: boolean }>(
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
      return { id: row.id, leadId: Number(row.lead_id), created: row.created };
    });
  }
}
