import { Body, Controller, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Caller } from '../common/auth/authenticated-request';
import { CurrentCaller } from '../common/auth/current-caller.decorator';
import { ApiErrors } from '../common/http/api-errors.decorator';
import { pageOf } from '../common/http/pagination';
import {
  DeliveriesQuery,
  RedeliverDto,
  RedeliveredDto,
  SigningSecretDto,
  TestEventDto,
  TestEventSentDto,
  UpdateWebhooksDto,
  WebhookDeliveriesDto,
  WebhooksDto,
} from './dto/webhooks.dto';
import { WebhookToolsService } from './webhook-tools.service';
import { WebhookSettingsService } from './webhook-settings.service';
import { RequiresScope } from '../common/auth/api-scopes';

@ApiTags('webhooks')
@RequiresScope('webhooks')
@Controller('v1')
export class WebhooksController {
  constructor(
    private readonly settings: WebhookSettingsService,
    private readonly tools: WebhookToolsService,
  ) {}

  @Get('webhooks')
  @ApiOperation({
    operationId: 'getWebhooks',
    summary: 'Read the webhook URLs',
    description: 'The status and inbound URLs (empty when off) and whether a signing secret is set; the secret itself is never returned.',
  })
  @ApiOkResponse({ type: WebhooksDto })
  @ApiErrors(401, 405, 429, 503)
  get(@CurrentCaller() caller: Caller) {
    return this.settings.get(caller.accountId);
  }

  @Patch('webhooks')
  @ApiOperation({
    operationId: 'updateWebhooks',
    summary: 'Set the webhook URLs',
    description:
      'Each URL must be https and must not resolve to a private, loopback or link-local address; an empty string switches that kind off. Fields left out keep their value.',
  })
  @ApiOkResponse({ type: WebhooksDto })
  @ApiErrors(400, 401, 405, 429, 503)
  update(@CurrentCaller() caller: Caller, @Body() body: UpdateWebhooksDto) {
    return this.settings.update(caller.accountId, body);
  }

  @Post('webhooks/signing-secret')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'rotateSigningSecret',
    summary: 'Create or rotate the signing secret',
    description: 'Returned once. From then on every webhook carries X-MM-Timestamp and X-MM-Signature (hex HMAC-SHA256 of timestamp, ".", raw body).',
  })
  @ApiOkResponse({ type: SigningSecretDto })
  @ApiErrors(401, 405, 429, 503)
  rotate(@CurrentCaller() caller: Caller) {
    return this.settings.rotateSecret(caller.accountId);
  }

  @Get('webhook-deliveries')
  @ApiOperation({
    operationId: 'listWebhookDeliveries',
    summary: 'List webhook delivery attempts',
    description:
      'Every attempt, newest first: its event id (the X-MM-Event-Id header), URL, attempt number, answer and error. Attempts are kept WEBHOOK_RETENTION_DAYS (default 30) after they were made.',
  })
  @ApiOkResponse({ type: WebhookDeliveriesDto })
  @ApiErrors(400, 401, 405, 429, 503)
  deliveries(@CurrentCaller() caller: Caller, @Query() query: DeliveriesQuery) {
    return this.settings.deliveries(caller.accountId, query.event, pageOf(query));
  }

  @Post('webhooks/test-event')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'sendTestWebhook',
    summary: 'Send a test webhook',
    description:
      'Sends a sample event, marked "test": true, to the status (default) or inbound URL: signed, retried and listed in the deliveries like any other, so a receiver can be tried end to end.',
  })
  @ApiOkResponse({ type: TestEventSentDto })
  @ApiErrors(400, 401, 405, 429, 503)
  testEvent(@CurrentCaller() caller: Caller, @Body() body: TestEventDto) {
    return this.tools.sendTestEvent(caller.accountId, body.event);
  }

  @Post('webhook-deliveries/redeliver')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'redeliverWebhooks',
    summary: 'Redeliver webhook events',
    description:
      'Makes one failed or discarded event (event_id), or every failed event created in a period (from, to), due again now, to the URL set now. Each gets one more attempt, numbered after its last.',
  })
  @ApiOkResponse({ type: RedeliveredDto })
  @ApiErrors(400, 401, 404, 405, 409, 429, 503)
  redeliver(@CurrentCaller() caller: Caller, @Body() body: RedeliverDto) {
    return this.tools.redeliver(caller.accountId, body);
  }
}
