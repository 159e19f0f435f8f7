import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { DomainError, IntegrationPrincipal, notFound, preparedRows, validationFailed } from '@app/platform';
import { emailKey, phoneKey } from '../domain/contact-keys';
import { LeadRepository } from '../domain/lead.repository';
import { LeadIntakeService } from './lead-intake.service';
import { lockLeadStatement } from './records.sql';

/** How a connector's record names its lead (INTERFACES.md "Ingestion", lead link). */
export interface LeadLink {
  leadId?: number;
  contact?: { email?: string; phoneNumber?: string; handle?: string };
  createLead?: boolean;
}

/**
 * The lead of a connector's record: `leadId` in the organization (else 404 `Lead not found.`), or
 * the contact matched by email, then phone (contact-keys.ts; the most recently updated lead wins).
 * No match: 422 UNPROCESSABLE, unless `createLead`, which runs a lead intake first. A `handle`
 * alone matches nothing yet (leads keep no chat handles). Call inside the record's transaction.
 */
@Injectable()
export class LeadLinks {
  constructor(
    private readonly em: EntityManager,
    private readonly leads: LeadRepository,
    private readonly intake: LeadIntakeService,
  ) {}

  async resolve(caller: IntegrationPrincipal, link: LeadLink): Promise<number> {
    const org = caller.organizationId;
    if (link.leadId !== undefined && link.contact !== undefined)
      throw validationFailed([{ path: 'contact', message: 'send leadId or contact, not both' }]);
    if (link.contact && !link.contact.email && !link.contact.phoneNumber && !link.contact.handle)
      throw validationFailed([{ path: 'contact', message: 'contact needs an email, phoneNumber or handle' }]);
    if (link.leadId !== undefined) {
      // one prepared statement that also locks the lead for the record's write (its facts follow)
      const [lead] = await preparedRows<{ id: string }>(this.em, lockLeadStatement(org, link.leadId));
      if (!lead) throw notFound('Lead');
      return Number(lead.id);
    }
    const email = emailKey(link.contact?.email);
    const phone = phoneKey(link.contact?.phoneNumber);
    const match =
      (email ? await this.leads.latestByContact(org, 'email', email) : null) ??
      (phone ? await this.leads.latestByContact(org, 'phone', phone) : null);
    if (match) return match.id;
    if (link.createLead && (email || phone)) {
      const created = await this.intake.intake(caller, null, {
        email: link.contact?.email,
        phoneNumber: link.contact?.phoneNumber,
        source: caller.connector,
      });
      return created.leadId;
    }
    throw new DomainError(
      'UNPROCESSABLE',
      'No lead of the organization matches the contact; send createLead: true to create one.',
    );
  }
}
