export { CrmModule } from './crm.module';
export { CrmJobsModule } from './crm-jobs.module';
export { LeadCountersCompaction } from './application/lead-counters-compaction';

// Services other contexts, apps and tests call (the actor first).
export { LeadsService, type CreateLead } from './application/leads.service';
export { LeadsQueries } from './application/leads.queries';
export { NotesService } from './application/notes.service';
export { TasksService, type CreateTask } from './application/tasks.service';
export { DealsService, type CreateDeal, type ChangeDeal } from './application/deals.service';
export { DealsQueries } from './application/deals.queries';
export type { LeadJson } from './views/lead.view';
export { LeadView } from './views/lead.view';
export type { NoteJson } from './views/note.view';
export type { TaskJson } from './views/task.view';
export type { DealJson } from './views/deal.view';
export { DEAL_STAGES, DEAL_STATUSES, type DealStage, type DealStatus } from './domain/deal.entity';
export { CRM_STATUSES, type CrmStatus } from './domain/lead.entity';
export { TASK_STATUSES, type TaskStatus } from './domain/task.entity';

// The reads the MCP tools mirror (libs/mcp calls them as the /v1 routes do)
export { TimelineQueries } from './application/timeline.queries';
export { RecordsQueries } from './application/records.queries';
export { CalendarQueries } from './application/calendar.queries';
export { FreeTimesQueries } from './application/free-times.queries';
export { ListDealsQueryDto } from './http/dto/deal.dto';
export { ConversationQueryDto } from './http/dto/records.dto';
export { CHANNELS } from './domain/records';

// Connectors (`/integrations/v1`): lead intake, the lead link of every record, the routing port.
export { LeadIntakeService, type LeadIntake } from './application/lead-intake.service';
export { LeadLinks, type LeadLink } from './application/lead-links';
export { LeadLinkDto, LeadContactDto } from './http/dto/intake.dto';
export {
  LeadRouterProvider,
  LeadRouting,
  type LeadRouter,
  type RoutableLead,
  type RoutedOwners,
} from './extension-points/lead-router';
export { RoutingLeads } from './application/routing-leads';
export {
  ListingReadabilityCheck,
  ListingReadabilityProvider,
  type ListingReadability,
} from './extension-points/listing-readability';
export {
  SEARCH_SOURCE_KINDS,
  SearchIndexerProvider,
  SearchIndexing,
  type SearchDocument,
  type SearchIndexer,
  type SearchSourceKind,
} from './extension-points/search-indexer';
export { SearchDocuments, type SearchReindexJson } from './application/search-documents';
export { searchSourcePageStatement } from './application/search-documents.sql';
export type { ExternalKind } from './domain/external-id.entity';
export type { IntakeResultJson } from './views/intake.view';
export { UpsertResultView, type UpsertResultJson } from './views/record-upsert.view';
export { LeadFactsService, type FactsRebuildJson } from './application/lead-facts.service';
export { leadWorkFactsStatement } from './application/records.sql';

// The only door to a lead: later contexts reach leads, and records kept on leads, through it.
export { LeadAccess, type OnLead } from './application/lead-access';
export type { LeadReachScope, Statement } from './domain/lead-reach';

// Extension points: a context contributes to a lead's timeline and to the calendar.
export {
  TimelineSourceProvider,
  type TimelineById,
  type TimelineLead,
  type TimelineSource,
} from './extension-points/timeline-source';
export { TIMELINE_TYPES, type TimelineType } from './domain/lead-history.entity';
export type { TimelineEntryJson } from './views/timeline.view';
export {
  CalendarSourceProvider,
  type CalendarRequest,
  type CalendarSource,
} from './extension-points/calendar-source';
export {
  LeadEventListenerProvider,
  type LeadEvent,
  type LeadEventListener,
} from './extension-points/lead-events';
export {
  BusySourceProvider,
  type BusyRequest,
  type BusySource,
  type BusyTime,
} from './extension-points/busy-source';
export { MeetingsService } from './application/meetings.service';
export type { MeetingJson } from './views/meeting.view';
export { CALENDAR_KINDS, type CalendarItemJson, type CalendarKind } from './views/calendar.view';
