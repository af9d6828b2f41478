import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Caller } from '../common/auth/authenticated-request';
import { CurrentCaller } from '../common/auth/current-caller.decorator';
import { ApiErrors } from '../common/http/api-errors.decorator';
import { SendersResponseDto } from './dto/senders-response.dto';
import { SendersService } from './senders.service';

@ApiTags('account')
@Controller('v1/senders')
export class SendersController {
  constructor(private readonly senders: SendersService) {}

  @Get()
  @ApiOperation({
    operationId: 'listSenders',
    summary: "List the account's active senders",
    description: 'The values a send may name as `sender`: alphanumeric Sender IDs (matched exactly) and numbers (matched in any form a recipient may take, shown normalised).',
  })
  @ApiOkResponse({ type: SendersResponseDto })
  @ApiErrors(401, 405, 429, 503)
  list(@CurrentCaller() caller: Caller) {
    return this.senders.listActive(caller.accountId);
  }
}
