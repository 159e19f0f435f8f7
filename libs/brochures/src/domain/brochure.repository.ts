import { TenantRepository } from '@app/platform/core';
import type { Brochure } from './brochure.entity';

export class BrochureRepository extends TenantRepository<Brochure> {}
