import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Caller } from '../common/auth/authenticated-request';
import { CurrentCaller } from '../common/auth/current-caller.decorator';
import { ApiErrors } from '../common/http/api-errors.decorator';
import { AccountsService } from './accounts.service';
import { AccountResponseDto } from './dto/account-response.dto';
import { RequiresScope } from '../common/auth/api-scopes';

@ApiTags('account')
@RequiresScope('account')
@Controller('v1/account')
export class AccountController {
  constructor(private readonly accounts: AccountsService) {}

  @Get()
  @ApiOperation({
    operationId: 'getAccount',
    summary: 'Read the credit balance',
    description: 'The account’s credit balance (a number with at most two decimals), its name and whether it is a test account.',
  })
  @ApiOkResponse({ type: AccountResponseDto })
  @ApiErrors(401, 405, 429, 503)
  show(@CurrentCaller() caller: Caller) {
    return this.accounts.show(caller.accountId);
  }
}
