import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Caller } from '../common/auth/authenticated-request';
import { CurrentCaller } from '../common/auth/current-caller.decorator';
import { ApiErrors } from '../common/http/api-errors.decorator';
import { ListSendDto, ListSendResultDto } from './dto/list-send.dto';
import { ListSendService } from './list-send.service';
import { toListSendCommand } from './messages.mapper';
import { RequiresScope } from '../common/auth/api-scopes';

@ApiTags('messages')
@RequiresScope('messages:send')
@Controller('v1/list-send')
export class ListSendController {
  constructor(private readonly listSend: ListSendService) {}

  /** No Idempotency-Key handling here (interface: the header is ignored). */
  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'sendToList',
    summary: 'Send to a list',
    description:
      'One message per member, personalised from the member’s fields, after removing unsubscribed numbers, duplicate numbers and texts over the part cap (each counted). Optionally scheduled and staggered. Takes no Idempotency-Key.',
  })
  @ApiOkResponse({ type: ListSendResultDto })
  @ApiErrors(400, 401, 403, 404, 405, 429, 500, 503)
  send(@CurrentCaller() caller: Caller, @Body() body: ListSendDto) {
    return this.listSend.send(caller, toListSendCommand(body));
  }
}
