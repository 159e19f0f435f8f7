import { TenantRepository } from '@app/platform/core';
import type { LeadHistory } from './lead-history.entity';

export class LeadHistoryRepository extends TenantRepository<LeadHistory> {}
