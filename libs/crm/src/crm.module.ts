import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { IdentityModule } from '@app/identity';
import { LeadAccess } from './application/lead-access';
import { LeadHistoryRecorder } from './application/lead-history.recorder';
import { LeadsQueries } from './application/leads.queries';
import { LeadsService } from './application/leads.service';
import { NotesService } from './application/notes.service';
import { TasksService } from './application/tasks.service';
import { TimelineQueries } from './application/timeline.queries';
import { Lead } from './domain/lead.entity';
import { LeadHistory } from './domain/lead-history.entity';
import { Note } from './domain/note.entity';
import { Task } from './domain/task.entity';
import { LeadsController } from './http/leads.controller';
import { NotesController, TasksController } from './http/notes-tasks.controller';

export const CRM_ENTITIES = [Lead, Note, Task, LeadHistory];

/** The CRM: leads, notes, tasks, history and timeline. */
@Module({
  imports: [MikroOrmModule.forFeature(CRM_ENTITIES), IdentityModule],
  controllers: [LeadsController, NotesController, TasksController],
  providers: [
    LeadAccess,
    LeadHistoryRecorder,
    LeadsQueries,
    LeadsService,
    NotesService,
    TasksService,
    TimelineQueries,
  ],
  exports: [LeadsService, LeadsQueries, NotesService, TasksService, TimelineQueries],
})
export class CrmModule {}
