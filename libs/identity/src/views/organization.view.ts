import { ApiProperty } from '@nestjs/swagger';
import { SHARED_LIMITS } from '@app/platform';
import type { Organization } from '../domain/organization.entity';

export interface OrganizationSummaryJson {
  id: string;
  name: string;
}

export const organizationSummary = (organization: Organization): OrganizationSummaryJson => ({
  id: organization.id,
  name: organization.name,
});

export class OrganizationSummaryView implements OrganizationSummaryJson {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
}

/** What the operator commands print: the agency's switches. */
export interface OrganizationState {
  id: string;
  name: string;
  planActive: boolean;
  disabled: boolean;
}

export const organizationState = (org: Organization): OrganizationState => ({
  id: org.id,
  name: org.name,
  planActive: org.planActive,
  disabled: org.disabled,
});

/** What `search-rate` prints: the figure set (null: the default) and the one in force. */
export interface OrganizationSearchRate {
  id: string;
  name: string;
  searchRatePerMinute: number | null;
  effectivePerMinute: number;
}

export const organizationSearchRate = (org: Organization): OrganizationSearchRate => ({
  id: org.id,
  name: org.name,
  searchRatePerMinute: org.searchRatePerMinute,
  effectivePerMinute: org.searchRatePerMinute ?? SHARED_LIMITS.search.perMinute,
});
