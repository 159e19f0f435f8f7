import { TenantRepository } from '@app/platform/core';
import type { OpenHouse } from './open-house.entity';

/** Open houses of one agency (writes go through the own agency's rows only). */
export class OpenHouseRepository extends TenantRepository<OpenHouse> {}
