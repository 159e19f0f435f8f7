import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { v7 as uuidv7 } from 'uuid';
import { LeadAccess, ListingReadabilityCheck } from '@app/crm';
import {
  Clock,
  conflict,
  eventActorOf,
  EventType,
  forbidden,
  isAdmin,
  notFound,
  Outbox,
  preparedRows,
  Principal,
  validationFailed,
  viewChanges,
} from '@app/platform';
import {
  API_SOURCE,
  canMoveViewing,
  USER_SOURCE,
  type ViewingKind,
  type ViewingStatus,
} from '../domain/viewing';
import { toViewingJson, type ViewingJson, type ViewingRecord } from '../views/viewing.view';
import {
  dealOfLeadStatement,
  memberStatement,
  viewingInsertStatement,
  viewingUpdateStatement,
  type ViewingFields,
} from './viewing-list.sql';
import { ViewingsQueries } from './viewings.queries';

/** `POST /v1/viewings` as the service takes it. */
export interface CreateViewing {
  propertyListingId: string;
  leadId: number;
  otherLeadIds?: number[];
  collaboratorLeadId?: number;
  dealId?: string;
  agentUserId?: string;
  viewingAt: string;
  kind: ViewingKind;
  notes?: string;
}

/** `PATCH /v1/viewings/{id}`: any create field; null clears an optional one. */
export interface ChangeViewing {
  propertyListingId?: string;
  leadId?: number;
  otherLeadIds?: number[];
  collaboratorLeadId?: number | null;
  dealId?: string | null;
  agentUserId?: string;
  viewingAt?: string;
  kind?: ViewingKind;
  notes?: string | null;
}

/** `PUT /v1/viewings/{id}/status`. */
export interface MoveViewing {
  status: ViewingStatus;
  viewingAt?: string;
}

/**
 * Viewings people make and change on `/v1` (crm:write and a plan: they touch leads). Leads are
 * reached only through the CRM's `LeadAccess`; the listing must be one the agency may read. One
 * transaction per write. The timeline, calendar and free-times read the table as it is.
 */
@Injectable()
export class ViewingsService {
  constructor(
    private readonly em: EntityManager,
    private readonly access: LeadAccess,
    private readonly listings: ListingReadabilityCheck,
    private readonly queries: ViewingsQueries,
    private readonly clock: Clock,
    private readonly outbox: Outbox,
  ) {}

  /** 201: `scheduled`, `source` `api` (a key) or `user` (a session). */
  create(actor: Principal, input: CreateViewing): Promise<ViewingJson> {
    return this.em.transactional(async (em) => {
      const fields = await this.checked(em, actor, {
        propertyListingId: input.propertyListingId.toLowerCase(),
        leadId: input.leadId,
        otherLeadIds: input.otherLeadIds ?? [],
        collaboratorLeadId: input.collaboratorLeadId ?? null,
        dealId: input.dealId?.toLowerCase() ?? null,
        agentUserId: (input.agentUserId ?? actor.userId).toLowerCase(),
        viewingAt: new Date(input.viewingAt),
        kind: input.kind,
        status: 'scheduled',
        notes: input.notes ?? null,
      });
      const id = uuidv7();
      const source = actor.kind === 'session' ? USER_SOURCE : API_SOURCE;
      const now = this.clock.now();
      await preparedRows(
        em,
        viewingInsertStatement(id, actor.organizationId, fields, source, actor.userId, now),
      );
      const created = await this.queries.record(em, actor, id);
      return this.event(em, actor, 'viewing.created', created, now);
    });
  }

  /** Any create field; the changed references are checked as on create. */
  change(actor: Principal, viewingId: string, changes: ChangeViewing): Promise<ViewingJson> {
    return this.em.transactional(async (em) => {
      const row = await this.queries.record(em, actor, viewingId, true);
      const current = fieldsOf(row);
      const next: ViewingFields = {
        ...current,
        propertyListingId: changes.propertyListingId?.toLowerCase() ?? current.propertyListingId,
        leadId: changes.leadId ?? current.leadId,
        otherLeadIds: changes.otherLeadIds ?? current.otherLeadIds,
        collaboratorLeadId:
          changes.collaboratorLeadId === undefined ? current.collaboratorLeadId : changes.collaboratorLeadId,
        dealId: changes.dealId === undefined ? current.dealId : (changes.dealId?.toLowerCase() ?? null),
        agentUserId: changes.agentUserId?.toLowerCase() ?? current.agentUserId,
        viewingAt: changes.viewingAt === undefined ? current.viewingAt : new Date(changes.viewingAt),
        kind: changes.kind ?? current.kind,
        notes: changes.notes === undefined ? current.notes : changes.notes,
      };
      const fields = await this.checked(em, actor, next, current);
      const changed = JSON.stringify(fields) !== JSON.stringify(current);
      const now = this.clock.now();
      await preparedRows(em, viewingUpdateStatement(actor.organizationId, row.id, fields, now, changed));
      const after = await this.queries.record(em, actor, row.id);
      return changed ? this.event(em, actor, 'viewing.updated', after, now, row) : toViewingJson(after);
    });
  }

  /**
   * scheduled → completed, cancelled or no_show; cancelled or no_show → scheduled with a new
   * `viewingAt`; completed is final. Any other move is 409 CONFLICT.
   */
  move(actor: Principal, viewingId: string, input: MoveViewing): Promise<ViewingJson> {
    return this.em.transactional(async (em) => {
      const row = await this.queries.record(em, actor, viewingId, true);
      if (!canMoveViewing(row.status, input.status)) {
        throw conflict(`A ${row.status} viewing cannot move to ${input.status}.`);
      }
      if (input.status === 'scheduled' && input.viewingAt === undefined) {
        throw validationFailed([
          { path: 'viewingAt', message: 'viewingAt is required to schedule the viewing again' },
        ]);
      }
      if (input.status !== 'scheduled' && input.viewingAt !== undefined) {
        throw validationFailed([
          { path: 'viewingAt', message: 'viewingAt is sent only to schedule the viewing again' },
        ]);
      }
      const current = fieldsOf(row);
      const fields: ViewingFields = {
        ...current,
        status: input.status,
        viewingAt: input.viewingAt === undefined ? current.viewingAt : new Date(input.viewingAt),
      };
      const now = this.clock.now();
      await preparedRows(em, viewingUpdateStatement(actor.organizationId, row.id, fields, now));
      const after = await this.queries.record(em, actor, row.id);
      return this.event(em, actor, 'viewing.status_changed', after, now, row);
    });
  }

  /**
   * Records the viewing's event in the write's transaction (`before`: the row the update
   * replaced, for `changedFields` and `previous`); answers the viewing's view, the event's object.
   */
  private event(
    em: EntityManager,
    actor: Principal,
    type: EventType,
    row: ViewingRecord,
    now: Date,
    before?: ViewingRecord,
  ): ViewingJson {
    const object = toViewingJson(row);
    const change = before && viewChanges(toViewingJson(before), object);
    this.outbox.record(em, {
      organizationId: actor.organizationId,
      type,
      occurredAt: now,
      subject: { type: 'viewing', id: row.id, leadId: Number(row.lead_id) },
      recordVersion: row.version,
      actor: eventActorOf(actor),
      data: change ? { object, previous: change.previous } : { object },
      ...(change ? { changedFields: change.changedFields } : {}),
    });
    return object;
  }

  /**
   * The references of a viewing about to be written, checked where they are new (`before` absent:
   * all of them): the leads reached (404 `Lead not found.`), the listing readable, the deal one of
   * the lead's, the agent a member (400), and another agent than the caller named by an admin only
   * (403 FORBIDDEN).
   */
  private async checked(
    em: EntityManager,
    actor: Principal,
    fields: ViewingFields,
    before?: ViewingFields,
  ): Promise<ViewingFields> {
    const changed = <K extends keyof ViewingFields>(key: K) =>
      before === undefined || before[key] !== fields[key];
    if (changed('agentUserId') && fields.agentUserId !== actor.userId && !isAdmin(actor)) {
      throw forbidden('A member can make viewings only for themselves.');
    }
    if (changed('leadId')) await this.access.reachableLead(actor, fields.leadId);
    const otherLeadIds = [...new Set(fields.otherLeadIds)].filter((id) => id !== fields.leadId);
    const newOthers = otherLeadIds.filter((id) => !before?.otherLeadIds.includes(id));
    if (newOthers.length > 0) {
      const reached = await this.access.reachableLeads(actor, newOthers);
      if (reached.length !== newOthers.length) throw notFound('Lead');
    }
    if (fields.collaboratorLeadId !== null && changed('collaboratorLeadId')) {
      await this.access.reachableLead(actor, fields.collaboratorLeadId);
    }
    if (fields.propertyListingId !== null && changed('propertyListingId')) {
      await this.listings.assertReadable(actor.organizationId, fields.propertyListingId);
    }
    if (fields.dealId !== null && (changed('dealId') || changed('leadId'))) {
      const [deal] = await preparedRows(
        em,
        dealOfLeadStatement(actor.organizationId, fields.dealId, fields.leadId),
      );
      if (!deal) throw validationFailed([{ path: 'dealId', message: 'dealId must name a deal of the lead' }]);
    }
    if (fields.agentUserId !== null && changed('agentUserId') && fields.agentUserId !== actor.userId) {
      const [member] = await preparedRows(em, memberStatement(actor.organizationId, fields.agentUserId));
      if (!member) {
        throw validationFailed([
          { path: 'agentUserId', message: 'agentUserId must name a member of the organization' },
        ]);
      }
    }
    return { ...fields, otherLeadIds };
  }
}

/** A stored viewing's writable fields. */
const fieldsOf = (row: ViewingRecord): ViewingFields => ({
  propertyListingId: row.property_listing_id,
  leadId: Number(row.lead_id),
  otherLeadIds: row.other_lead_ids.map(Number),
  collaboratorLeadId: row.collaborator_lead_id === null ? null : Number(row.collaborator_lead_id),
  dealId: row.deal_id,
  agentUserId: row.agent_user_id,
  viewingAt: new Date(row.viewing_at),
  kind: row.kind,
  status: row.status,
  notes: row.notes,
});
