import { Body, Controller, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Caller } from '../common/auth/authenticated-request';
import { CurrentCaller } from '../common/auth/current-caller.decorator';
import { ApiErrors } from '../common/http/api-errors.decorator';
import { pageOf } from '../common/http/pagination';
import { DeliveriesQuery, SigningSecretDto, UpdateWebhooksDto, WebhookDeliveriesDto, WebhooksDto } from './dto/webhooks.dto';
import { WebhookSettingsService } from './webhook-settings.service';

@ApiTags('webhooks')
@Controller('v1')
export class WebhooksController {
  constructor(private readonly settings: WebhookSettingsService) {}

  @Get('webhooks')
  @ApiOperation({ summary: 'The account’s webhook URLs (the secret is never returned)' })
  @ApiOkResponse({ type: WebhooksDto })
  @ApiErrors(401, 405, 429, 503)
  get(@CurrentCaller() caller: Caller) {
    return this.settings.get(caller.accountId);
  }

  @Patch('webhooks')
  @ApiOperation({ summary: 'Set or switch off the inbound and status URLs' })
  @ApiOkResponse({ type: WebhooksDto })
  @ApiErrors(400, 401, 405, 429, 503)
  update(@CurrentCaller() caller: Caller, @Body() body: UpdateWebhooksDto) {
    return this.settings.update(caller.accountId, body);
  }

  @Post('webhooks/signing-secret')
  @HttpCode(200)
  @ApiOperation({ summary: 'Create or rotate the signing secret (shown once)' })
  @ApiOkResponse({ type: SigningSecretDto })
  @ApiErrors(401, 405, 429, 503)
  rotate(@CurrentCaller() caller: Caller) {
    return this.settings.rotateSecret(caller.accountId);
  }

  @Get('webhook-deliveries')
  @ApiOperation({ summary: 'Recent delivery attempts, newest first' })
  @ApiOkResponse({ type: WebhookDeliveriesDto })
  @ApiErrors(400, 401, 405, 429, 503)
  deliveries(@CurrentCaller() caller: Caller, @Query() query: DeliveriesQuery) {
    return this.settings.deliveries(caller.accountId, query.event, pageOf(query));
  }
}
