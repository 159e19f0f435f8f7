import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  CurrentPrincipal,
  Idempotent,
  IntParam,
  Principal,
  RequireScopes,
  RequiresPlan,
  UuidParam,
} from '@app/platform';
import { NotesService } from '../application/notes.service';
import { TasksService } from '../application/tasks.service';
import { ChangeTaskDto, CreateTaskDto, ListTasksQueryDto, NoteContentDto } from './dto/note-task.dto';

@ApiTags('v1: notes')
@Controller('v1')
export class NotesController {
  constructor(private readonly notes: NotesService) {}

  /** Whole list, newest first. */
  @Get('leads/:leadId/notes')
  @RequireScopes('crm:read')
  list(@CurrentPrincipal() actor: Principal, @Param('leadId', IntParam) leadId: number) {
    return this.notes.list(actor, leadId);
  }

  @Post('leads/:leadId/notes')
  @RequireScopes('crm:write')
  @RequiresPlan()
  @Idempotent()
  create(
    @CurrentPrincipal() actor: Principal,
    @Param('leadId', IntParam) leadId: number,
    @Body() body: NoteContentDto,
  ) {
    return this.notes.create(actor, leadId, body.content);
  }

  /** Anyone who reaches the lead may edit. */
  @Patch('notes/:noteId')
  @RequireScopes('crm:write')
  @RequiresPlan()
  edit(
    @CurrentPrincipal() actor: Principal,
    @Param('noteId', UuidParam) noteId: string,
    @Body() body: NoteContentDto,
  ) {
    return this.notes.edit(actor, noteId, body.content);
  }

  /** A member deletes only own notes, an admin any. */
  @Delete('notes/:noteId')
  @HttpCode(204)
  @RequireScopes('crm:write')
  @RequiresPlan()
  delete(@CurrentPrincipal() actor: Principal, @Param('noteId', UuidParam) noteId: string): Promise<void> {
    return this.notes.delete(actor, noteId);
  }
}

@ApiTags('v1: tasks')
@Controller('v1/tasks')
export class TasksController {
  constructor(private readonly tasks: TasksService) {}

  /** Without leadId: at most 500 tasks the key's person created or is on. */
  @Get()
  @RequireScopes('crm:read')
  list(@CurrentPrincipal() actor: Principal, @Query() query: ListTasksQueryDto) {
    return this.tasks.list(actor, query);
  }

  @Post()
  @RequireScopes('crm:write')
  @RequiresPlan()
  @Idempotent()
  create(@CurrentPrincipal() actor: Principal, @Body() body: CreateTaskDto) {
    return this.tasks.create(actor, body);
  }

  @Patch(':taskId')
  @RequireScopes('crm:write')
  @RequiresPlan()
  change(
    @CurrentPrincipal() actor: Principal,
    @Param('taskId', UuidParam) taskId: string,
    @Body() body: ChangeTaskDto,
  ) {
    return this.tasks.change(actor, taskId, body);
  }

  @Delete(':taskId')
  @HttpCode(204)
  @RequireScopes('crm:write')
  @RequiresPlan()
  delete(@CurrentPrincipal() actor: Principal, @Param('taskId', UuidParam) taskId: string): Promise<void> {
    return this.tasks.delete(actor, taskId);
  }
}
