import { TenantRepository } from '@app/platform/core';
import type { BrochureListing } from './brochure-listing.entity';

export class BrochureListingRepository extends TenantRepository<BrochureListing> {}
