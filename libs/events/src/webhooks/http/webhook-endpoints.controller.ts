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
  Query,
} from '@nestjs/common';
import {
  ApiAcceptedResponse,
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
  ApiJsonBodyErrors,
  ApiNotFoundError,
  CurrentPrincipal,
  Idempotent,
  Principal,
  RequireScopes,
  RequiresPlan,
  UuidParam,
} from '@app/platform';
import { WebhookEndpointsService } from '../application/webhook-endpoints.service';
import {
  CreatedWebhookEndpointView,
  RotatedWebhookSecretView,
  WebhookDeliveryPageView,
  WebhookDeliveryView,
  WebhookEndpointListView,
  WebhookEndpointView,
} from '../views/webhook-endpoint.view';
import {
  ChangeWebhookEndpointDto,
  CreateWebhookEndpointDto,
  WebhookDeliveriesQueryDto,
} from './dto/webhook-endpoints.dto';

/** INTERFACES.md "Webhook endpoints": admins only; reads crm:read, writes crm:write and a plan. */
const AdminRead = () => applyDecorators(RequireScopes('crm:read'), AdminOnly());
const AdminWrite = () => applyDecorators(RequireScopes('crm:write'), AdminOnly(), RequiresPlan());

const ENDPOINT = 'Webhook endpoint';
const NOT_OURS = "when it is absent or another organization's";
const URL_REFUSED =
  'VALIDATION_FAILED at `url` also for a URL that is not `https://` (`http://` only to localhost, ' +
  'when the service allows it), carries credentials, or whose host does not resolve or resolves to a ' +
  'private, loopback, link-local or metadata address; at `events` for an empty list or an entry ' +
  'that is not a catalogued type, `<kind>.*` or `*`; `description` over 255 characters.';
const DISABLED = 'CONFLICT: the endpoint is disabled (enable it first).';

@ApiTags('v1: webhooks')
@Controller('v1/webhook-endpoints')
export class WebhookEndpointsController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @Post()
  @ApiOperation({
    summary: 'Create a webhook endpoint',
    description:
      'A receiver of signed event deliveries (Standard Webhooks). Answers the endpoint with its ' +
      'signing `secret`, shown only here and on rotation (an `Idempotency-Key` replay does not ' +
      'repeat it). It receives the matching events committed from now on. At most 10 per organization.',
  })
  @AdminWrite()
  @Idempotent({ storeResponse: false })
  @ApiCreatedResponse({ type: CreatedWebhookEndpointView })
  @ApiJsonBodyErrors(URL_REFUSED)
  @ApiConflictError('CONFLICT: the organization holds 10 webhook endpoints already.')
  create(@CurrentPrincipal() actor: Principal, @Body() body: CreateWebhookEndpointDto) {
    return this.endpoints.create(actor, {
      url: body.url,
      description: body.description,
      events: body.events,
      enabled: body.enabled,
    });
  }

  @Get()
  @ApiOperation({
    summary: 'List the webhook endpoints',
    description: "The organization's endpoints, oldest first (never a secret); `hasMore` is always false.",
  })
  @AdminRead()
  @ApiOkResponse({ type: WebhookEndpointListView })
  list(@CurrentPrincipal() actor: Principal) {
    return this.endpoints.list(actor);
  }

  @Get(':endpointId')
  @ApiOperation({ summary: 'Read a webhook endpoint', description: 'The endpoint, never its secret.' })
  @AdminRead()
  @ApiOkResponse({ type: WebhookEndpointView })
  @ApiBadRequestErrors()
  @ApiNotFoundError(ENDPOINT, NOT_OURS)
  get(@CurrentPrincipal() actor: Principal, @Param('endpointId', UuidParam) endpointId: string) {
    return this.endpoints.get(actor, endpointId);
  }

  @Patch(':endpointId')
  @ApiOperation({
    summary: 'Change a webhook endpoint',
    description:
      'Any of `url`, `description` (null clears), `events`, `enabled`. Enabling clears the failure ' +
      'state (`disabledReason`, the 3-day failure window); disabling stops deliveries (pending ones fail ' +
      'at their next attempt).',
  })
  @AdminWrite()
  @ApiOkResponse({ type: WebhookEndpointView })
  @ApiJsonBodyErrors(URL_REFUSED)
  @ApiNotFoundError(ENDPOINT, NOT_OURS)
  change(
    @CurrentPrincipal() actor: Principal,
    @Param('endpointId', UuidParam) endpointId: string,
    @Body() body: ChangeWebhookEndpointDto,
  ) {
    return this.endpoints.change(actor, endpointId, {
      url: body.url,
      description: body.description,
      events: body.events,
      enabled: body.enabled,
    });
  }

  @Delete(':endpointId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a webhook endpoint', description: 'The endpoint and its deliveries go.' })
  @AdminWrite()
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiBadRequestErrors()
  @ApiNotFoundError(ENDPOINT, NOT_OURS)
  remove(@CurrentPrincipal() actor: Principal, @Param('endpointId', UuidParam) endpointId: string) {
    return this.endpoints.remove(actor, endpointId);
  }

  @Post(':endpointId/rotate-secret')
  @HttpCode(200)
  @ApiOperation({
    summary: "Rotate a webhook endpoint's secret",
    description:
      'A new signing secret (shown only here). For 24 hours every delivery carries two signatures, ' +
      'the new secret’s and the previous one’s, space-separated in `webhook-signature`.',
  })
  @AdminWrite()
  @ApiOkResponse({ type: RotatedWebhookSecretView })
  @ApiBadRequestErrors()
  @ApiNotFoundError(ENDPOINT, NOT_OURS)
  rotate(@CurrentPrincipal() actor: Principal, @Param('endpointId', UuidParam) endpointId: string) {
    return this.endpoints.rotate(actor, endpointId);
  }

  @Post(':endpointId/test')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send a test event to a webhook endpoint',
    description:
      'Records a `ping` event and sends it to this endpoint now (no other endpoint receives it); ' +
      'answers its delivery after the attempt (up to 10 s). A failed ping is retried on the schedule.',
  })
  @AdminWrite()
  @ApiOkResponse({ type: WebhookDeliveryView })
  @ApiBadRequestErrors()
  @ApiNotFoundError(ENDPOINT, NOT_OURS)
  @ApiConflictError(DISABLED)
  test(@CurrentPrincipal() actor: Principal, @Param('endpointId', UuidParam) endpointId: string) {
    return this.endpoints.test(actor, endpointId);
  }

  @Get(':endpointId/deliveries')
  @ApiOperation({
    summary: "List a webhook endpoint's deliveries",
    description:
      'The deliveries of the last 30 days, newest first; offset paging (`limit` 1-100, default 20).',
  })
  @AdminRead()
  @ApiOkResponse({ type: WebhookDeliveryPageView })
  @ApiBadRequestErrors('VALIDATION_FAILED also for a `limit` outside 1-100 or a negative `offset`.')
  @ApiNotFoundError(ENDPOINT, NOT_OURS)
  deliveries(
    @CurrentPrincipal() actor: Principal,
    @Param('endpointId', UuidParam) endpointId: string,
    @Query() query: WebhookDeliveriesQueryDto,
  ) {
    return this.endpoints.deliveries(actor, endpointId, { limit: query.limit, offset: query.offset });
  }

  @Post(':endpointId/deliveries/:deliveryId/retry')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Retry a webhook delivery',
    description: 'The delivery becomes `pending` and due now; it is attempted within a second or so.',
  })
  @AdminWrite()
  @ApiAcceptedResponse({ type: WebhookDeliveryView, description: 'The delivery, pending and due now.' })
  @ApiBadRequestErrors()
  @ApiNotFoundError(ENDPOINT, "when the endpoint or the delivery is absent or another organization's")
  @ApiConflictError(DISABLED)
  retry(
    @CurrentPrincipal() actor: Principal,
    @Param('endpointId', UuidParam) endpointId: string,
    @Param('deliveryId', UuidParam) deliveryId: string,
  ) {
    return this.endpoints.retry(actor, endpointId, deliveryId);
  }
}
