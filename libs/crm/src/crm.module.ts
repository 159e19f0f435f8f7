import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { IdentityModule } from '@app/identity';
import { CalendarQueries } from './application/calendar.queries';
import { HistoryTimelineSource } from './application/history.timeline-source';
import { InquiriesTimelineSource } from './application/inquiries.timeline-source';
import { LeadIntakeService } from './application/lead-intake.service';
import { LeadLinks } from './application/lead-links';
import { LeadAccess } from './application/lead-access';
import { LeadHistoryRecorder } from './application/lead-history.recorder';
import { LeadsQueries } from './application/leads.queries';
import { LeadsService } from './application/leads.service';
import { NotesService } from './application/notes.service';
import { NotesTimelineSource } from './application/notes.timeline-source';
import { SyncQueries } from './application/sync.queries';
import { TasksCalendarSource } from './application/tasks.calendar-source';
import { TasksService } from './application/tasks.service';
import { TasksTimelineSource } from './application/tasks.timeline-source';
import { TimelineQueries } from './application/timeline.queries';
import { ExternalId } from './domain/external-id.entity';
import { Lead } from './domain/lead.entity';
import { LeadInquiry } from './domain/lead-inquiry.entity';
import { LeadHistory } from './domain/lead-history.entity';
import { Note } from './domain/note.entity';
import { Task } from './domain/task.entity';
import { CalendarSources } from './extension-points/calendar-source';
import { LeadRouter, UnassignedLeadRouter } from './extension-points/lead-router';
import { TimelineSources } from './extension-points/timeline-source';
import { CalendarController } from './http/calendar.controller';
import { LeadIntakeController } from './http/intake.controller';
import { LeadsController } from './http/leads.controller';
import { NotesController, TasksController } from './http/notes-tasks.controller';

export const CRM_ENTITIES = [Lead, Note, Task, LeadHistory, ExternalId, LeadInquiry];

/**
 * The CRM: leads, notes, tasks, history, and the lead timeline and calendar other contexts
 * contribute to (`TimelineSource`, `CalendarSource`, discovered at boot).
 */
@Module({
  imports: [MikroOrmModule.forFeature(CRM_ENTITIES), IdentityModule, DiscoveryModule],
  controllers: [LeadsController, NotesController, TasksController, CalendarController, LeadIntakeController],
  providers: [
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
    LeadIntakeService,
    LeadLinks,
    InquiriesTimelineSource,
    // lead routing plugs in here; until then connectors' leads stay unassigned
    { provide: LeadRouter, useClass: UnassignedLeadRouter },
  ],
  exports: [LeadAccess, LeadsService, LeadsQueries, NotesService, TasksService, LeadIntakeService, LeadLinks],
})
export class CrmModule {}
