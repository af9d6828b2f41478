import { Body, Controller, Delete, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Caller } from '../common/auth/authenticated-request';
import { CurrentCaller } from '../common/auth/current-caller.decorator';
import { ApiErrors } from '../common/http/api-errors.decorator';
import { CreateKeywordRuleDto, DeleteKeywordRuleDto, KeywordRuleCreatedDto, KeywordRuleDeletedDto, KeywordRulesDto, UpdateKeywordRuleDto } from './dto/keyword-rule.dto';
import type { KeywordRuleCommand } from './keyword-rules.service';
import { KeywordRulesService } from './keyword-rules.service';
import { RequiresScope } from '../common/auth/api-scopes';

@ApiTags('keyword-rules')
@RequiresScope('account')
@Controller('v1/keyword-rules')
export class KeywordRulesController {
  constructor(private readonly rules: KeywordRulesService) {}

  @Get()
  @ApiOperation({
    operationId: 'listKeywordRules',
    summary: 'List keyword rules',
    description: 'The account’s rules in the order they are tried, and the built-in keywords answered when none matches first. STOP is always applied first.',
  })
  @ApiOkResponse({ type: KeywordRulesDto })
  @ApiErrors(401, 405, 429, 503)
  list(@CurrentCaller() caller: Caller) {
    return this.rules.list(caller.accountId);
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'createKeywordRule',
    summary: 'Create a keyword rule',
    description: 'At most 100 rules per account. The inbound webhook of a matching reply names the rule (`keyword_rule`).',
  })
  @ApiOkResponse({ type: KeywordRuleCreatedDto })
  @ApiErrors(400, 401, 404, 405, 409, 429, 503)
  create(@CurrentCaller() caller: Caller, @Body() body: CreateKeywordRuleDto) {
    return this.rules.create(caller.accountId, commandOf(body));
  }

  @Patch()
  @ApiOperation({
    operationId: 'updateKeywordRule',
    summary: 'Change a keyword rule',
    description:
      'Replaces the rule’s match, keyword, number and actions with those given, checked as on create (an action left out is off). `position` moves the rule among the others; without it the rule keeps its place.',
  })
  @ApiOkResponse({ type: KeywordRuleCreatedDto })
  @ApiErrors(400, 401, 404, 405, 429, 503)
  update(@CurrentCaller() caller: Caller, @Body() body: UpdateKeywordRuleDto) {
    return this.rules.update(caller.accountId, body.rule_id, commandOf(body));
  }

  @Delete()
  @HttpCode(200)
  @ApiOperation({ operationId: 'deleteKeywordRule', summary: 'Delete a keyword rule', description: 'The rules after it move up one place.' })
  @ApiOkResponse({ type: KeywordRuleDeletedDto })
  @ApiErrors(400, 401, 404, 405, 429, 503)
  delete(@CurrentCaller() caller: Caller, @Body() body: DeleteKeywordRuleDto) {
    return this.rules.delete(caller.accountId, body.rule_id);
  }
}

function commandOf(body: CreateKeywordRuleDto): KeywordRuleCommand {
  return {
    match: body.match,
    keyword: body.keyword,
    number: body.number,
    reply: body.reply,
    addToListId: body.add_to_list_id,
    removeFromListId: body.remove_from_list_id,
    optOut: body.opt_out,
    optIn: body.opt_in,
    position: body.position,
  };
}
