/**
 * Brochures (issue 17): the brochure aggregate (domain/), the Nest module with the `/v1` routes,
 * the public page and the expiry job.
 */
export { Brochure, BROCHURE_LIMITS, type BrochureStatus } from './domain/brochure.entity';
export { BrochureListing, HIDDEN_FIELDS, type HiddenField } from './domain/brochure-listing.entity';
export { BrochuresModule, BROCHURE_ENTITIES } from './brochures.module';
export { BrochureJobsModule } from './brochure-jobs.module';
export { BrochureExpiry } from './application/brochure-expiry';
export { VIEWS_FLUSH_MS } from './application/brochure-views';
// the MCP tool `list_brochures` (issue 19) runs the route's query with its DTO
export { BrochuresQueries, BROCHURE_LIST_STATUSES } from './application/brochures.queries';
export { ListBrochuresQueryDto } from './http/dto/brochures.dto';
