import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Clock, eventActorOf, IntegrationPrincipal, SYSTEM_ACTOR } from '@app/platform';
import { defaultOrigin, emailKey, phoneKey } from '../domain/contact-keys';
import { ExternalIdRepository, ExternalRef } from '../domain/external-id.repository';
import { IntakeDetails, Lead } from '../domain/lead.entity';
import { LeadInquiry, ListingRef } from '../domain/lead-inquiry.entity';
import { LeadRepository } from '../domain/lead.repository';
import { LeadRouting } from '../extension-points/lead-router';
import { IntakeResultJson } from '../views/intake.view';
import { changeOf, CrmEvents, FieldValues, leadFields } from './crm-events';
import { LeadHistoryRecorder } from './lead-history.recorder';
import { LeadsQueries } from './leads.queries';

/** `PUT /integrations/v1/leads/{externalId}` as the service takes it (INTERFACES.md "Lead intake"). */
export interface LeadIntake {
  firstName?: string;
  lastName?: string;
  email?: string;
  phoneNumber?: string;
  language?: string;
  leadType?: string;
  source: string;
  origin?: string;
  country?: string;
  growthAreaId?: string;
  message?: string;
  listing?: ListingRef;
  consent?: { contact: boolean; marketing: boolean; capturedAt: string; wording?: string };
}

/**
 * Lead intake: one transaction that finds the person (same external id, then email, then phone),
 * or creates the lead, lets routing decide owners of an unowned lead, remembers the connector's id
 * and adds the `inquiry` entry. It holds advisory locks on the external id and the normalised
 * email and phone, so parallel intakes of one person make one lead.
 *
 * Events (issue 19): `lead.created` for a new lead, or `lead.updated` for the fields an intake
 * filled on a matched one (the connector's), `lead.routed` when routing gave it owners (the
 * system's), and `lead.inquiry` for the inquiry itself (the connector's).
 */
@Injectable()
export class LeadIntakeService {
  constructor(
    private readonly em: EntityManager,
    private readonly leads: LeadRepository,
    private readonly externalIds: ExternalIdRepository,
    private readonly history: LeadHistoryRecorder,
    private readonly router: LeadRouting,
    private readonly clock: Clock,
    private readonly events: CrmEvents,
    private readonly queries: LeadsQueries,
  ) {}

  /** `externalId` null: an intake without one (a lead link's `createLead`). */
  async intake(
    caller: IntegrationPrincipal,
    externalId: string | null,
    input: LeadIntake,
  ): Promise<IntakeResultJson> {
    const org = caller.organizationId;
    const email = emailKey(input.email);
    const phone = phoneKey(input.phoneNumber);
    const ref: ExternalRef | null = externalId
      ? { connector: caller.connector, kind: 'lead', externalId }
      : null;
    const details = intakeDetails(caller, input);
    return this.em.transactional(async (em) => {
      await this.leads.lockIntake(org, [
        ...(ref ? [`external:${ref.connector}:${ref.externalId}`] : []),
        ...(email ? [`email:${email}`] : []),
        ...(phone ? [`phone:${phone}`] : []),
      ]);
      const now = this.clock.now();
      const actor = eventActorOf(caller);
      const match = await this.match(org, ref, email, phone);
      let lead = match?.lead;
      let before: FieldValues;
      if (lead) {
        before = leadFields(lead);
        lead.fillFromIntake(details, now);
        await em.flush();
        const filled = changeOf(before, leadFields(lead));
        const parts = filled ? [{ type: 'lead.updated' as const, change: filled }] : [];
        await this.events.leadChanged(em, org, lead.id, parts, actor, now);
      } else {
        lead = Lead.fromIntake(org, input.source, details, now);
        await em.persist(lead).flush(); // the id comes from the database
        this.history.createdByConnector(caller, lead, now);
        const created = await this.queries.inOrganization(org, lead.id);
        if (created) this.events.leadCreated(em, org, created, actor, now);
      }
      if (ref) await this.externalIds.remember(org, ref, String(lead.id), lead.id, now);
      // routing last: it takes the agency's routing lock, held until this transaction commits
      const owners = [...lead.assigneeIds];
      if (lead.assigneeIds.length === 0) await this.route(lead, now);
      const inquiry = new LeadInquiry(
        {
          organizationId: org,
          leadId: lead.id,
          origin: details.origin,
          message: input.message ?? null,
          listing: input.listing ?? null,
          actor: caller.actor,
        },
        now,
      );
      em.persist(inquiry);
      await em.flush();
      const routed = changeOf({ assigneeIds: owners }, { assigneeIds: lead.assigneeIds });
      if (routed) {
        await this.events.leadChanged(
          em,
          org,
          lead.id,
          [{ type: 'lead.routed', change: routed }],
          SYSTEM_ACTOR,
          now,
        );
      }
      this.events.inquiry(em, inquiry, actor);
      return {
        leadId: lead.id,
        created: !match,
        deduplicatedBy: match?.by ?? null,
        assigneeIds: lead.assigneeIds,
      };
    });
  }

  /** De-duplication in order: the connector's id, then email, then phone. */
  private async match(
    organizationId: string,
    ref: ExternalRef | null,
    email: string | null,
    phone: string | null,
  ): Promise<{ lead: Lead; by: 'externalId' | 'email' | 'phone' } | null> {
    if (ref) {
      const leadId = await this.externalIds.recordIdOf(organizationId, ref);
      const lead = leadId ? await this.leads.findInOrg(organizationId, { id: Number(leadId) }) : null;
      if (lead) return { lead, by: 'externalId' };
    }
    if (email) {
      const lead = await this.leads.latestByContact(organizationId, 'email', email);
      if (lead) return { lead, by: 'email' };
    }
    if (phone) {
      const lead = await this.leads.latestByContact(organizationId, 'phone', phone);
      if (lead) return { lead, by: 'phone' };
    }
    return null;
  }

  private async route(lead: Lead, now: Date): Promise<void> {
    const routed = await this.router.route(
      {
        organizationId: lead.organizationId,
        leadId: lead.id,
        source: lead.source,
        origin: lead.origin,
        leadType: lead.leadType,
        language: lead.language,
        country: lead.country,
        tagIds: lead.tagIds,
        growthAreaId: lead.growthAreaId,
        hasPhone: lead.phoneNumber !== '',
        hasEmail: lead.email !== '',
        arrivedAt: lead.createdAt,
      },
      now,
    );
    if (!routed || routed.userIds.length === 0) return;
    const change = lead.replaceAssignees(routed.userIds, now);
    this.history.routed(lead.organizationId, lead.id, change, routed.actor, now);
  }
}

function intakeDetails(caller: IntegrationPrincipal, input: LeadIntake): IntakeDetails {
  return {
    firstName: input.firstName,
    lastName: input.lastName,
    email: input.email?.trim(),
    phoneNumber: input.phoneNumber?.trim(),
    language: input.language,
    leadType: input.leadType,
    origin: input.origin ?? defaultOrigin(caller.connector),
    country: input.country?.toUpperCase(),
    growthAreaId: input.growthAreaId?.toLowerCase(),
    consent: input.consent && {
      contact: input.consent.contact,
      marketing: input.consent.marketing,
      capturedAt: new Date(input.consent.capturedAt).toISOString(),
      wording: input.consent.wording ?? null,
    },
  };
}
