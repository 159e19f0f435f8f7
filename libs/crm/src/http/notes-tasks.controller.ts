import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiExtension,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiTags,
  ApiOperation,
  getSchemaPath,
} from '@nestjs/swagger';
import {
  ApiBadRequestErrors,
  ApiForbiddenError,
  ApiJsonBodyErrors,
  ApiNotFoundError,
  CurrentPrincipal,
  Idempotent,
  IntParam,
  Principal,
  UuidParam,
} from '@app/platform';
import { CrmRead, CrmWrite } from './crm-access';
import { NotesService } from '../application/notes.service';
import { SyncQueries } from '../application/sync.queries';
import { TasksService } from '../application/tasks.service';
import { ChangeTaskDto, CreateTaskDto, ListTasksQueryDto, NoteContentDto } from './dto/note-task.dto';
import { ListNotesQueryDto, syncRequestOf, SYNC_MODE_RULES } from './dto/sync.dto';
import { NoteListView, NoteSyncPageView, NoteView } from '../views/note.view';
import { TaskListView, TaskSyncPageView, TaskView } from '../views/task.view';

const PEOPLE_CHECKED =
  'A person who is not a member of the organization, or a team that is not one of its live teams, ' +
  'is VALIDATION_FAILED; so is a `dueDate` that is neither YYYY-MM-DD nor an ISO 8601 timestamp with offset.';
const SYNC_REFUSALS =
  'VALIDATION_FAILED also for a malformed `updatedSince`, or a `cursor` this list did not give';
const TASK_FORBIDDEN =
  'FORBIDDEN: `Only the task owner, someone on it, or an admin can change it.` (someone else who reaches the lead)';

@ApiTags('v1: notes')
@Controller('v1')
export class NotesController {
  constructor(
    private readonly notes: NotesService,
    private readonly sync: SyncQueries,
  ) {}

  /** Whole list, newest first; or sync by cursor. */
  @Get('leads/:leadId/notes')
  @ApiOperation({
    summary: "List a lead's notes, or sync them by cursor",
    description:
      'Whole list, newest first, `{data, hasMore: false}`. ' +
      SYNC_MODE_RULES +
      ' A deleted note appears once as `{id, updatedAt, removed: true}`. The sync answer is the ' +
      '`NoteSyncPageView` schema (`x-sync-answer`).',
  })
  @CrmRead()
  @ApiExtraModels(NoteSyncPageView)
  @ApiExtension('x-sync-answer', { $ref: getSchemaPath(NoteSyncPageView) })
  @ApiOkResponse({
    type: NoteListView,
    description: 'With `updatedSince` or `cursor`: `{data, hasMore, nextCursor}`, schema `NoteSyncPageView`.',
  })
  @ApiBadRequestErrors(`${SYNC_REFUSALS}.`)
  @ApiNotFoundError('Lead')
  list(
    @CurrentPrincipal() actor: Principal,
    @Param('leadId', IntParam) leadId: number,
    @Query() query: ListNotesQueryDto,
  ) {
    const sync = syncRequestOf(query);
    return sync ? this.sync.notes(actor, leadId, sync) : this.notes.list(actor, leadId);
  }

  @Post('leads/:leadId/notes')
  @ApiOperation({ summary: 'Add a note to a lead' })
  @CrmWrite()
  @Idempotent()
  @ApiCreatedResponse({ type: NoteView, description: "Authored by the key's person." })
  @ApiJsonBodyErrors()
  @ApiNotFoundError('Lead')
  create(
    @CurrentPrincipal() actor: Principal,
    @Param('leadId', IntParam) leadId: number,
    @Body() body: NoteContentDto,
  ) {
    return this.notes.create(actor, leadId, body.content);
  }

  /** Anyone who reaches the lead may edit. */
  @Patch('notes/:noteId')
  @ApiOperation({ summary: 'Edit a note' })
  @CrmWrite()
  @ApiOkResponse({ type: NoteView })
  @ApiJsonBodyErrors()
  @ApiNotFoundError('Note')
  edit(
    @CurrentPrincipal() actor: Principal,
    @Param('noteId', UuidParam) noteId: string,
    @Body() body: NoteContentDto,
  ) {
    return this.notes.edit(actor, noteId, body.content);
  }

  /** A member deletes only own notes, an admin any. */
  @Delete('notes/:noteId')
  @ApiOperation({ summary: 'Delete a note' })
  @HttpCode(204)
  @CrmWrite()
  @ApiNoContentResponse({ description: 'The note is gone.' })
  @ApiBadRequestErrors()
  @ApiForbiddenError('FORBIDDEN: `A member can delete only their own notes.`')
  @ApiNotFoundError('Note')
  delete(@CurrentPrincipal() actor: Principal, @Param('noteId', UuidParam) noteId: string): Promise<void> {
    return this.notes.delete(actor, noteId);
  }
}

@ApiTags('v1: tasks')
@Controller('v1/tasks')
export class TasksController {
  constructor(
    private readonly tasks: TasksService,
    private readonly sync: SyncQueries,
  ) {}

  /** Without leadId: at most 500 tasks the key's person created or is on; or sync by cursor. */
  @Get()
  @ApiOperation({
    summary: 'List tasks, or sync them by cursor',
    description:
      "With `leadId`: the lead's tasks. Without: at most 500 tasks the key's person created or is on (admins " +
      'too). ' +
      SYNC_MODE_RULES +
      " Sync covers the key's person's tasks (no `leadId`, no `status`); a task deleted, or one they are " +
      'taken off, appears once as `{id, updatedAt, removed: true}`. The sync answer is the `TaskSyncPageView` ' +
      'schema (`x-sync-answer`).',
  })
  @CrmRead()
  @ApiExtraModels(TaskSyncPageView)
  @ApiExtension('x-sync-answer', { $ref: getSchemaPath(TaskSyncPageView) })
  @ApiOkResponse({
    type: TaskListView,
    description: 'With `updatedSince` or `cursor`: `{data, hasMore, nextCursor}`, schema `TaskSyncPageView`.',
  })
  @ApiBadRequestErrors(`${SYNC_REFUSALS}, or \`leadId\` or \`status\` with either.`)
  @ApiNotFoundError('Lead', "when `leadId` names a lead that is absent or out of the caller's reach")
  list(@CurrentPrincipal() actor: Principal, @Query() query: ListTasksQueryDto) {
    const sync = syncRequestOf(query);
    return sync ? this.sync.tasks(actor, sync) : this.tasks.list(actor, query);
  }

  @Post()
  @ApiOperation({ summary: 'Create a task' })
  @CrmWrite()
  @Idempotent()
  @ApiCreatedResponse({ type: TaskView, description: "Owner defaults to the key's person." })
  @ApiJsonBodyErrors(PEOPLE_CHECKED)
  @ApiNotFoundError(
    'Lead',
    "when the body's `leadId` names a lead that is absent or out of the caller's reach",
  )
  create(@CurrentPrincipal() actor: Principal, @Body() body: CreateTaskDto) {
    return this.tasks.create(actor, body);
  }

  @Patch(':taskId')
  @ApiOperation({ summary: 'Change a task' })
  @CrmWrite()
  @ApiOkResponse({ type: TaskView })
  @ApiJsonBodyErrors(PEOPLE_CHECKED)
  @ApiForbiddenError(`${TASK_FORBIDDEN}. FORBIDDEN: \`Only an admin can change who is on a task.\``)
  @ApiNotFoundError('Task')
  change(
    @CurrentPrincipal() actor: Principal,
    @Param('taskId', UuidParam) taskId: string,
    @Body() body: ChangeTaskDto,
  ) {
    return this.tasks.change(actor, taskId, body);
  }

  @Delete(':taskId')
  @ApiOperation({ summary: 'Delete a task' })
  @HttpCode(204)
  @CrmWrite()
  @ApiNoContentResponse({ description: 'The task is gone.' })
  @ApiBadRequestErrors()
  @ApiForbiddenError(TASK_FORBIDDEN)
  @ApiNotFoundError('Task')
  delete(@CurrentPrincipal() actor: Principal, @Param('taskId', UuidParam) taskId: string): Promise<void> {
    return this.tasks.delete(actor, taskId);
  }
}
