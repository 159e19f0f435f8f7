export { NetworkModule } from './network.module';

export { ViewingsIngestService, type ViewingInput } from './application/viewings-ingest.service';
export { VIEWING_KINDS, VIEWING_STATUSES, type ViewingKind, type ViewingStatus } from './domain/viewing';
export { OpenHouse } from './domain/open-house.entity';
