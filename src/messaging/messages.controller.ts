import { Body, Controller, Delete, Get, Header, HttpCode, Post, Query } from '@nestjs/common';
import { JSON_CONTENT_TYPE } from '../common/http/serialized-json';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Caller } from '../common/auth/authenticated-request';
import { CurrentCaller } from '../common/auth/current-caller.decorator';
import { ApiErrors } from '../common/http/api-errors.decorator';
import { Idempotent, IdempotencyKey } from '../idempotency/idempotency.interceptor';
import type { IdempotencyClaim } from '../idempotency/idempotency.service';
import { CancelMessagesService } from './cancel-messages.service';
import { ApiCancelOk, CancelMessagesDto } from './dto/cancel-messages.dto';
import { ApiMessagesQueryOk, MessagesQuery } from './dto/query-messages.dto';
import { SendMessagesDto, SendResultDto } from './dto/send-messages.dto';
import { MessageLookupService } from './message-lookup.service';
import { toCancelCommand, toSendBatchCommand } from './messages.mapper';
import { SendBatchService } from './send-batch.service';
import { RequiresScope } from '../common/auth/api-scopes';

@ApiTags('messages')
@Controller('v1/messages')
export class MessagesController {
  constructor(
    private readonly sendBatch: SendBatchService,
    private readonly lookup: MessageLookupService,
    private readonly cancelMessages: CancelMessagesService,
  ) {}

  @Post()
  @RequiresScope('messages:send')
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    operationId: 'sendMessages',
    summary: 'Send messages',
    description:
      'Up to 10000 messages; each is checked on its own, so a 200 can hold success, blocked (unsubscribed) and error entries. The whole batch is paid for together (403 when it cannot be). Retry safely with an Idempotency-Key: the same key and body within 24 hours replays the first answer (Idempotency-Replay: true); the same key with another body is 422.',
  })
  @ApiOkResponse({ type: SendResultDto })
  @ApiErrors(400, 401, 403, 405, 413, 422, 429, 500, 503)
  // The answer arrives serialized (SendBatchService.sendAsJson) and is sent as it is.
  @Header('Content-Type', JSON_CONTENT_TYPE)
  async send(@CurrentCaller() caller: Caller, @Body() body: SendMessagesDto, @IdempotencyKey() claim?: IdempotencyClaim): Promise<Buffer> {
    return (await this.sendBatch.sendAsJson(caller, toSendBatchCommand(body), claim)).bytes;
  }

  @Get()
  @RequiresScope('messages:read')
  @ApiOperation({
    operationId: 'queryMessages',
    summary: 'Look up messages or browse the history',
    description:
      'With `message_id` (first) or `custom_ref` (the 100 most recent): the lookup shape, 404 when nothing matches. Without either: the paginated history, filtered by `status` and the `from`/`to` days.',
  })
  @ApiMessagesQueryOk()
  @ApiErrors(400, 401, 404, 405, 429, 503)
  query(@CurrentCaller() caller: Caller, @Query() query: MessagesQuery) {
    return this.lookup.query(caller.accountId, query);
  }

  @Delete()
  @RequiresScope('messages:send')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'cancelMessages',
    summary: 'Cancel scheduled messages',
    description:
      'By the first identifier given of `message_id`, `send_id`, `custom_ref` (never falling through to the next). Only scheduled messages are cancelled; their credits are refunded in full.',
  })
  @ApiCancelOk()
  @ApiErrors(400, 401, 404, 405, 409, 429, 500, 503)
  cancel(@CurrentCaller() caller: Caller, @Body() body: CancelMessagesDto) {
    return this.cancelMessages.cancel(caller.accountId, toCancelCommand(body));
  }
}
