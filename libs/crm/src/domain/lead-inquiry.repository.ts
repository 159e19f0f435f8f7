import { TenantRepository } from '@app/platform/core';
import type { LeadInquiry } from './lead-inquiry.entity';

export class LeadInquiryRepository extends TenantRepository<LeadInquiry> {}
