import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
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

@ApiTags('messages')
@Controller('v1/messages')
export class MessagesController {
  constructor(
    private readonly sendBatch: SendBatchService,
    private readonly lookup: MessageLookupService,
    private readonly cancelMessages: CancelMessagesService,
  ) {}

  @Post()
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({ summary: 'Send up to 10000 messages; each is validated on its own' })
  @ApiOkResponse({ type: SendResultDto })
  @ApiErrors(400, 401, 403, 405, 413, 422, 429, 500, 503)
  send(@CurrentCaller() caller: Caller, @Body() body: SendMessagesDto, @IdempotencyKey() claim?: IdempotencyClaim) {
    return this.sendBatch.send(caller, toSendBatchCommand(body), claim);
  }

  @Get()
  @ApiOperation({ summary: 'Look up by message_id or custom_ref, or browse the history' })
  @ApiMessagesQueryOk()
  @ApiErrors(400, 401, 404, 405, 429, 503)
  query(@CurrentCaller() caller: Caller, @Query() query: MessagesQuery) {
    return this.lookup.query(caller.accountId, query);
  }

  @Delete()
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel scheduled messages by message_id, send_id or custom_ref, refunding their credits' })
  @ApiCancelOk()
  @ApiErrors(400, 401, 404, 405, 409, 429, 500, 503)
  cancel(@CurrentCaller() caller: Caller, @Body() body: CancelMessagesDto) {
    return this.cancelMessages.cancel(caller.accountId, toCancelCommand(body));
  }
}
