export { NetworkModule } from './network.module';

export { ViewingsIngestService, type ViewingInput } from './application/viewings-ingest.service';
export { VIEWING_KINDS, VIEWING_STATUSES, type ViewingKind, type ViewingStatus } from './domain/viewing';
export { OpenHouse } from './domain/open-house.entity';
// the MCP tools `list_viewings` and `list_open_houses` (issue 19) run the routes' queries with their DTOs
export { ViewingsQueries } from './application/viewings.queries';
export { OpenHousesQueries } from './application/open-houses.queries';
export { ListViewingsQueryDto } from './http/dto/viewings.dto';
export { ListOpenHousesQueryDto } from './http/dto/open-houses.dto';
export { OPEN_HOUSE_SCOPES } from './application/open-houses.sql';
export { OPEN_HOUSE_STATUSES, OPEN_HOUSE_VISIBILITIES, RSVP_STATUSES } from './domain/open-house.entity';
