import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Clock, notFound } from '@app/platform';
import { Organization } from '../domain/organization.entity';
import { ApiKeyCache } from './api-key-cache';

export interface OrganizationState {
  id: string;
  name: string;
  planActive: boolean;
  disabled: boolean;
}

const state = (org: Organization): OrganizationState => ({
  id: org.id,
  name: org.name,
  planActive: org.planActive,
  disabled: org.disabled,
});

/** Operator switches: plan on/off, organization enabled/disabled. */
@Injectable()
export class OrganizationsService {
  constructor(
    private readonly em: EntityManager,
    private readonly clock: Clock,
    private readonly keyCache: ApiKeyCache,
  ) {}

  async setPlan(organizationId: string, active: boolean): Promise<OrganizationState> {
    const org = await this.find(organizationId);
    org.setPlan(active, this.clock.now());
    await this.em.flush();
    this.keyCache.invalidateOrganization(org.id);
    return state(org);
  }

  async setDisabled(organizationId: string, disabled: boolean): Promise<OrganizationState> {
    const org = await this.find(organizationId);
    org.setDisabled(disabled, this.clock.now());
    await this.em.flush();
    this.keyCache.invalidateOrganization(org.id);
    return state(org);
  }

  private async find(organizationId: string): Promise<Organization> {
    const org = /^[0-9a-f-]{36}$/i.test(organizationId)
      ? await this.em.findOne(Organization, organizationId)
      : null;
    if (!org) throw notFound('Organization');
    return org;
  }
}
