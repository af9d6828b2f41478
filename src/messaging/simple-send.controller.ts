import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Caller } from '../common/auth/authenticated-request';
import { CurrentCaller } from '../common/auth/current-caller.decorator';
import { AcceptsQueryCredentials } from '../common/auth/public.decorator';
import { ApiErrors } from '../common/http/api-errors.decorator';
import { SendResultDto } from './dto/send-messages.dto';
import { ApiSimpleSendQuery, type SimpleSendQuery } from './dto/simple-send.dto';
import { toSimpleSendCommand } from './messages.mapper';
import { SendBatchService } from './send-batch.service';
import { RequiresScope } from '../common/auth/api-scopes';

/**
 * The single-message interface outside v1 that client libraries call with everything in the query
 * string. It is one message of POST /v1/messages: the same service, rules and result body.
 */
@ApiTags('simple')
@RequiresScope('messages:send')
@Controller('simple')
export class SimpleSendController {
  constructor(private readonly sendBatch: SendBatchService) {}

  @Get('send-sms')
  @AcceptsQueryCredentials()
  // A send is never answered from a cache: every answer, refusals included, carries Cache-Control: no-store (bootstrap/gets-with-effects.ts).
  @ApiOperation({
    operationId: 'sendSimpleMessage',
    summary: 'Send one message (query-string interface)',
    description:
      'One message of POST /v1/messages with every parameter in the query string: the same rules, charges and result body. Credentials: Basic auth (preferred: a query string ends up in logs and proxies) or `api_username` and `api_password` in the query; when both come, Basic auth is used.',
  })
  @ApiSimpleSendQuery()
  @ApiOkResponse({ type: SendResultDto })
  @ApiSecurity({ apiUsername: [], apiPassword: [] })
  @ApiErrors(401, 403, 405, 429, 500, 503)
  send(@CurrentCaller() caller: Caller, @Query() query: SimpleSendQuery) {
    return this.sendBatch.send(caller, toSimpleSendCommand(query));
  }
}
