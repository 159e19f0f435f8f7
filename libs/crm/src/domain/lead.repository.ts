import { TenantRepository } from '@app/platform';
import type { Lead } from './lead.entity';

export class LeadRepository extends TenantRepository<Lead> {}
