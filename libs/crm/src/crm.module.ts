import { MikroOrmModule } from '@mikro-orm/nestjs';
import { CrmJobsModule } from './crm-jobs.module';
import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { IdentityModule } from '@app/identity';
import { CalendarQueries } from './application/calendar.queries';
import { DealsCalendarSource } from './application/deals.calendar-source';
import { DealsQueries } from './application/deals.queries';
import { DealsService } from './application/deals.service';
import { DealsTimelineSource } from './application/deals.timeline-source';
import { FreeTimesQueries } from './application/free-times.queries';
import { HistoryTimelineSource } from './application/history.timeline-source';
import { InquiriesTimelineSource } from './application/inquiries.timeline-source';
import { LeadIntakeService } from './application/lead-intake.service';
import { LeadFactsService } from './application/lead-facts.service';
import { LeadLinks } from './application/lead-links';
import { CrmEvents } from './application/crm-events';
import { LeadAccess } from './application/lead-access';
import { LeadHistoryRecorder } from './application/lead-history.recorder';
import { LeadsQueries } from './application/leads.queries';
import { LeadsService } from './application/leads.service';
import { MeetingsCalendarSource } from './application/meetings.calendar-source';
import { MeetingsService } from './application/meetings.service';
import { NotesService } from './application/notes.service';
import { NotesTimelineSource } from './application/notes.timeline-source';
import { SyncQueries } from './application/sync.queries';
import { TasksCalendarSource } from './application/tasks.calendar-source';
import { TasksService } from './application/tasks.service';
import { TasksTimelineSource } from './application/tasks.timeline-source';
import { TimelineQueries } from './application/timeline.queries';
import { RecordsIngestService } from './application/records-ingest.service';
import { RecordsQueries } from './application/records.queries';
import { RecordsTimelineSource } from './application/records.timeline-source';
import { SearchDocuments } from './application/search-documents';
import { Deal, DealParticipant } from './domain/deal.entity';
import { WorkingHoursService } from './application/working-hours.service';
import { ExternalId } from './domain/external-id.entity';
import { Lead } from './domain/lead.entity';
import { LeadInquiry } from './domain/lead-inquiry.entity';
import { LeadHistory } from './domain/lead-history.entity';
import { Meeting } from './domain/meeting.entity';
import { Note } from './domain/note.entity';
import { Task } from './domain/task.entity';
import { WorkingHours } from './domain/working-hours.entity';
import { BusySources } from './extension-points/busy-source';
import { CalendarSources } from './extension-points/calendar-source';
import { LeadEvents } from './extension-points/lead-events';
import { RoutingLeads } from './application/routing-leads';
import { LeadRouting } from './extension-points/lead-router';
import { ListingReadabilityCheck } from './extension-points/listing-readability';
import { SearchIndexing } from './extension-points/search-indexer';
import { TimelineSources } from './extension-points/timeline-source';
import { CalendarController } from './http/calendar.controller';
import { DealsController } from './http/deals.controller';
import { LeadIntakeController } from './http/intake.controller';
import { LeadsController } from './http/leads.controller';
import { RecordsController } from './http/records.controller';
import { RecordsIngestController } from './http/records-ingest.controller';
import { MeetingsController, WorkingHoursController } from './http/meetings.controller';
import { NotesController, TasksController } from './http/notes-tasks.controller';

export const CRM_ENTITIES = [
  Lead,
  Note,
  Task,
  LeadHistory,
  Deal,
  DealParticipant,
  Meeting,
  WorkingHours,
  ExternalId,
  LeadInquiry,
];

/**
 * The CRM: leads, notes, tasks, deals, history, and the lead timeline and calendar other contexts
 * contribute to (`TimelineSource`, `CalendarSource`, `BusySource`, discovered at boot); meetings and
 * working hours for the calendar and its free times.
 */
@Module({
  imports: [MikroOrmModule.forFeature(CRM_ENTITIES), IdentityModule, DiscoveryModule, CrmJobsModule],
  controllers: [
    LeadsController,
    NotesController,
    TasksController,
    DealsController,
    CalendarController,
    MeetingsController,
    WorkingHoursController,
    LeadIntakeController,
    RecordsIngestController,
    RecordsController,
  ],
  providers: [
    // the CRM's events (issue 19): versions and Outbox drafts, in each write's transaction
    CrmEvents,
    LeadAccess,
    LeadHistoryRecorder,
    LeadsQueries,
    LeadsService,
    NotesService,
    TasksService,
    SyncQueries,
    TimelineSources,
    TimelineQueries,
    HistoryTimelineSource,
    NotesTimelineSource,
    TasksTimelineSource,
    CalendarSources,
    CalendarQueries,
    TasksCalendarSource,
    DealsService,
    DealsQueries,
    DealsTimelineSource,
    DealsCalendarSource,
    BusySources,
    FreeTimesQueries,
    MeetingsService,
    WorkingHoursService,
    MeetingsCalendarSource,
    LeadIntakeService,
    LeadLinks,
    InquiriesTimelineSource,
    LeadFactsService,
    RecordsIngestService,
    RecordsQueries,
    RecordsTimelineSource,
    LeadEvents,
    // the LeadRouter a context marks (lead routing); without one connectors' leads stay unassigned
    LeadRouting,
    RoutingLeads,
    // the ListingReadability listings marks; deals and viewings check propertyListingId with it
    ListingReadabilityCheck,
    // the SearchIndexer search marks; every searchable write calls it in its transaction
    SearchIndexing,
    // the searchable records in pages, for `search:reindex`
    SearchDocuments,
  ],
  exports: [
    CrmEvents,
    LeadAccess,
    LeadsService,
    LeadsQueries,
    NotesService,
    TasksService,
    DealsService,
    DealsQueries,
    LeadIntakeService,
    LeadLinks,
    LeadFactsService,
    // what lead routing reads and writes on leads
    RoutingLeads,
    ListingReadabilityCheck,
    SearchIndexing,
    SearchDocuments,
  ],
})
export class CrmModule {}
