import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Caller } from '../common/auth/authenticated-request';
import { CurrentCaller } from '../common/auth/current-caller.decorator';
import { ApiErrors } from '../common/http/api-errors.decorator';
import { pageOf } from '../common/http/pagination';
import { UnsubscribeAddedDto, UnsubscribeNumberDto, UnsubscribeRemovedDto, UnsubscribesPageDto, UnsubscribesQuery } from './dto/unsubscribe.dto';
import { UnsubscribesService } from './unsubscribes.service';
import { RequiresScope } from '../common/auth/api-scopes';

@ApiTags('unsubscribes')
@RequiresScope('contacts')
@Controller('v1/unsubscribes')
export class UnsubscribesController {
  constructor(private readonly unsubscribes: UnsubscribesService) {}

  @Get()
  @ApiOperation({
    operationId: 'listUnsubscribes',
    summary: 'List opted-out numbers',
    description: 'Newest first, with how each opted out (`reply`, `link` or `api`).',
  })
  @ApiOkResponse({ type: UnsubscribesPageDto })
  @ApiErrors(400, 401, 405, 429, 503)
  page(@CurrentCaller() caller: Caller, @Query() query: UnsubscribesQuery) {
    return this.unsubscribes.page(caller.accountId, query.number, pageOf(query));
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'addUnsubscribe',
    summary: 'Unsubscribe a number',
    description: 'Sends to it are blocked unless a send ignores unsubscribes; it also leaves every list. Already unsubscribed: `added: false`.',
  })
  @ApiOkResponse({ type: UnsubscribeAddedDto })
  @ApiErrors(400, 401, 405, 429, 503)
  add(@CurrentCaller() caller: Caller, @Body() body: UnsubscribeNumberDto) {
    return this.unsubscribes.addByApi(caller.accountId, body.number, caller.apiKeyId);
  }

  @Delete()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'removeUnsubscribe',
    summary: 'Remove a number from the unsubscribe list',
    description: 'Sends reach it again. Not unsubscribed: `removed: false`.',
  })
  @ApiOkResponse({ type: UnsubscribeRemovedDto })
  @ApiErrors(400, 401, 405, 429, 503)
  remove(@CurrentCaller() caller: Caller, @Body() body: UnsubscribeNumberDto) {
    return this.unsubscribes.remove(caller.accountId, body.number, caller.apiKeyId);
  }
}
