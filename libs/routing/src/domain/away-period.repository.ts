import { TenantRepository } from '@app/platform/core';
import type { AwayPeriod } from './away-period.entity';

export class AwayPeriodRepository extends TenantRepository<AwayPeriod> {}
