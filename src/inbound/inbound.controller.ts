import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Caller } from '../common/auth/authenticated-request';
import { CurrentCaller } from '../common/auth/current-caller.decorator';
import { ApiErrors } from '../common/http/api-errors.decorator';
import { pageOf } from '../common/http/pagination';
import { InboundPageDto, InboundQuery, TestInboundDto, TestInboundResultDto } from './dto/inbound.dto';
import { InboundService } from './inbound.service';
import { RequiresScope } from '../common/auth/api-scopes';

@ApiTags('inbound')
@Controller('v1')
export class InboundController {
  constructor(private readonly inbound: InboundService) {}

  @Get('inbound')
  @RequiresScope('messages:read')
  @ApiOperation({
    operationId: 'listInbound',
    summary: 'List replies and opt-outs',
    description: 'Received on the account’s numbers, newest first; each names the most recent message sent to that mobile from that number.',
  })
  @ApiOkResponse({ type: InboundPageDto })
  @ApiErrors(400, 401, 405, 429, 503)
  page(@CurrentCaller() caller: Caller, @Query() query: InboundQuery) {
    return this.inbound.page(caller.accountId, query, pageOf(query));
  }

  @Post('test-inbound')
  @RequiresScope('messages:send')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'simulateInbound',
    summary: 'Simulate a reply (test accounts)',
    description: 'The message takes the path of a real reply: opt-out detection, storage and the inbound webhook. Live accounts: 403.',
  })
  @ApiOkResponse({ type: TestInboundResultDto })
  @ApiErrors(400, 401, 403, 405, 429, 503)
  simulate(@CurrentCaller() caller: Caller, @Body() body: TestInboundDto) {
    return this.inbound.simulate(caller.accountId, body);
  }
}
