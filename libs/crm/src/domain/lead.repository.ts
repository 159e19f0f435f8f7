import { TenantRepository } from '@app/platform/core';
import type { Lead } from './lead.entity';

export class LeadRepository extends TenantRepository<Lead> {}
