import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Clock, isUuid, notFound } from '@app/platform';
import { Organization } from '../domain/organization.entity';
import { OrganizationRepository } from '../domain/organization.repository';
import {
  organizationSearchRate,
  OrganizationSearchRate,
  organizationState,
  OrganizationState,
} from '../views/organization.view';
import { KeyDoor } from './key-door';

/** Operator switches: plan on/off, organization enabled/disabled. */
@Injectable()
export class OrganizationsService {
  constructor(
    private readonly em: EntityManager,
    private readonly organizations: OrganizationRepository,
    private readonly clock: Clock,
    private readonly door: KeyDoor,
  ) {}

  async setPlan(organizationId: string, active: boolean): Promise<OrganizationState> {
    const org = await this.existing(organizationId);
    org.setPlan(active, this.clock.now());
    await this.em.flush();
    await this.door.organizationChanged(org.id);
    return organizationState(org);
  }

  async setDisabled(organizationId: string, disabled: boolean): Promise<OrganizationState> {
    const org = await this.existing(organizationId);
    org.setDisabled(disabled, this.clock.now());
    await this.em.flush();
    await this.door.organizationChanged(org.id);
    return organizationState(org);
  }

  /**
   * `npm run ops -- search-rate`: the organization's figure for the shared `search` limit (null:
   * back to the default). The key door drops the agency's keys at once, as for a plan switch.
   */
  async setSearchRate(organizationId: string, perMinute: number | null): Promise<OrganizationSearchRate> {
    const org = await this.existing(organizationId);
    org.setSearchRate(perMinute, this.clock.now());
    await this.em.flush();
    await this.door.organizationChanged(org.id);
    return organizationSearchRate(org);
  }

  /** The agency's currency (EUR unless set): what a new deal is in when none is named. */
  async currencyOf(organizationId: string): Promise<string> {
    const org = await this.organizations.findForOperator(organizationId);
    return org?.currency ?? 'EUR';
  }

  /** The agency's switches, or null for an unknown id (the public pages serve only live agencies). */
  async stateOf(organizationId: string): Promise<OrganizationState | null> {
    const org = isUuid(organizationId) ? await this.organizations.findForOperator(organizationId) : null;
    return org ? organizationState(org) : null;
  }

  private async existing(organizationId: string): Promise<Organization> {
    const org = isUuid(organizationId) ? await this.organizations.findForOperator(organizationId) : null;
    if (!org) throw notFound('Organization');
    return org;
  }
}
