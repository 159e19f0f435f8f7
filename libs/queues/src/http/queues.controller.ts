import {
  applyDecorators,
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Put,
} from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import {
  AdminOnly,
  ApiBadRequestErrors,
  ApiConflictError,
  ApiForbiddenError,
  ApiJsonBodyErrors,
  ApiNotFoundError,
  CurrentPrincipal,
  Idempotent,
  Principal,
  RequireScopes,
  RequiresPlan,
  UuidParam,
} from '@app/platform';
import { QueuePreviewService } from '../application/queue-preview.service';
import { QUEUES_PER_PERSON, QueuesService } from '../application/queues.service';
import { QueueListView, QueuePreviewView, QueueView } from '../views/queue.view';
import { ChangeQueueDto, CreateQueueDto, PreviewQueueDto, QueueAudienceDto } from './dto/queue.dto';

/** Spec (Queues): reads need crm:read and no plan; writes crm:write and an active plan. */
const QueueRead = () => RequireScopes('crm:read');
const QueueWrite = () => applyDecorators(RequireScopes('crm:write'), RequiresPlan());

const DEFINITION_REFUSED =
  'Any definition failure is VALIDATION_FAILED with `details.issues[].path` such as ' +
  '`lanes[1].when.children[0].value` (name 1-40, up to 8 lanes, 10 rules, 25 children a group, two ' +
  'group levels, coolDownMinutes 0-1440, the value kind each operator takes); so is a team pool or ' +
  '`assign` offer naming someone outside the organization.';
const TEAM_POOL_NOT_SHARED =
  'QUEUE_TEAM_POOL_NOT_SHARED: a team calling pool on a queue that is not `shared`.';
const TEAM_POOL_ADMIN_ONLY =
  'QUEUE_TEAM_POOL_ADMIN_ONLY: a member setting a team calling pool (checked before QUEUE_TEAM_POOL_NOT_SHARED).';
const NOT_OPENABLE =
  "when it is absent, another agency's, a colleague's private queue (admins included) or a shared queue " +
  'whose audience leaves the caller out';

@ApiTags('v1: queues')
@Controller('v1/queues')
export class QueuesController {
  constructor(
    private readonly queues: QueuesService,
    private readonly previews: QueuePreviewService,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'List the queues of the sidebar',
    description:
      'The system queue ("My calls"), then the caller’s own queues, then the queues shared with them, each ' +
      'group by name. A shared queue with an audience shows only to its creator and that audience.',
  })
  @QueueRead()
  @ApiOkResponse({ type: QueueListView })
  list(@CurrentPrincipal() actor: Principal) {
    return this.queues.list(actor);
  }

  @Post('preview')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Preview a queue',
    description:
      'A stored queue (`queueId`) or an unsaved definition, over the leads the caller reaches (a stored team ' +
      'queue opened by one of its people: every lead of the agency). Lane counts, the rest count, leads ' +
      'cooling down, offer-rule counts, and the first 10 rows of each lane in its order (plus 10 rest rows ' +
      'with `laneId` null when `rest` is `last`). Days are UTC. Gives up after 5 s (503).',
  })
  @QueueRead()
  @ApiOkResponse({ type: QueuePreviewView })
  @ApiJsonBodyErrors(
    'VALIDATION_FAILED: neither or both of `queueId` and `definition`, or a definition that fails its checks.',
    'BAD_REQUEST: `$me` read without a person.',
  )
  @ApiNotFoundError('Queue', NOT_OPENABLE)
  preview(@CurrentPrincipal() actor: Principal, @Body() body: PreviewQueueDto) {
    return this.previews.preview(actor, body);
  }

  @Get(':queueId')
  @ApiOperation({
    summary: 'Read a queue',
    description: 'A queue the caller opens, with its summary and description.',
  })
  @QueueRead()
  @ApiOkResponse({ type: QueueView })
  @ApiBadRequestErrors()
  @ApiNotFoundError('Queue', NOT_OPENABLE)
  get(@CurrentPrincipal() actor: Principal, @Param('queueId', UuidParam) queueId: string) {
    return this.queues.get(actor, queueId);
  }

  @Post()
  @ApiOperation({
    summary: 'Create a queue',
    description: `Private unless \`scope\` is \`shared\`. At most ${QUEUES_PER_PERSON} queues a person.`,
  })
  @QueueWrite()
  @Idempotent()
  @ApiCreatedResponse({ type: QueueView })
  @ApiJsonBodyErrors(DEFINITION_REFUSED, TEAM_POOL_NOT_SHARED)
  @ApiForbiddenError(TEAM_POOL_ADMIN_ONLY)
  @ApiConflictError(`CONFLICT: the caller has ${QUEUES_PER_PERSON} queues already.`)
  create(@CurrentPrincipal() actor: Principal, @Body() body: CreateQueueDto) {
    return this.queues.create(actor, { ...body });
  }

  @Patch(':queueId')
  @ApiOperation({
    summary: 'Change a queue',
    description:
      'Own queues only. Given fields replace the stored ones; `lanes` and `rules` replace whole lists.',
  })
  @QueueWrite()
  @ApiOkResponse({ type: QueueView })
  @ApiJsonBodyErrors(
    DEFINITION_REFUSED,
    `${TEAM_POOL_NOT_SHARED} Also when the change makes a team queue private.`,
  )
  @ApiForbiddenError(
    `QUEUE_NOT_YOURS: a queue the caller opens but did not make. QUEUE_IS_SYSTEM: the system queue. ${TEAM_POOL_ADMIN_ONLY} Any change of a team queue by a member.`,
  )
  @ApiNotFoundError('Queue', NOT_OPENABLE)
  change(
    @CurrentPrincipal() actor: Principal,
    @Param('queueId', UuidParam) queueId: string,
    @Body() body: ChangeQueueDto,
  ) {
    return this.queues.change(actor, queueId, { ...body });
  }

  @Put(':queueId/audience')
  @ApiOperation({
    summary: 'Set who sees a shared queue',
    description:
      'Admins only. `userIds` and `teamIds` of the organization; empty lists: the whole agency. Answers the queue.',
  })
  @QueueWrite()
  @AdminOnly()
  @ApiOkResponse({ type: QueueView })
  @ApiJsonBodyErrors(
    'BAD_REQUEST: the queue is private. VALIDATION_FAILED: a person or team outside the organization.',
  )
  @ApiForbiddenError('QUEUE_IS_SYSTEM: the system queue.')
  @ApiNotFoundError('Queue', NOT_OPENABLE)
  setAudience(
    @CurrentPrincipal() actor: Principal,
    @Param('queueId', UuidParam) queueId: string,
    @Body() body: QueueAudienceDto,
  ) {
    return this.queues.setAudience(actor, queueId, {
      userIds: body.userIds ?? [],
      teamIds: body.teamIds ?? [],
    });
  }

  @Delete(':queueId')
  @ApiOperation({ summary: 'Delete a queue', description: 'Own queues only; leads are untouched.' })
  @HttpCode(204)
  @QueueWrite()
  @ApiNoContentResponse({ description: 'The queue is gone from every sidebar.' })
  @ApiBadRequestErrors()
  @ApiForbiddenError(
    'QUEUE_NOT_YOURS: a queue the caller opens but did not make. QUEUE_IS_SYSTEM: the system queue.',
  )
  @ApiNotFoundError('Queue', NOT_OPENABLE)
  delete(@CurrentPrincipal() actor: Principal, @Param('queueId', UuidParam) queueId: string): Promise<void> {
    return this.queues.delete(actor, queueId);
  }
}
