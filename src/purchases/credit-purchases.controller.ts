import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Caller } from '../common/auth/authenticated-request';
import { CurrentCaller } from '../common/auth/current-caller.decorator';
import { ApiErrors } from '../common/http/api-errors.decorator';
import { IdempotencyKey } from '../idempotency/idempotency.interceptor';
import type { IdempotencyClaim } from '../idempotency/idempotency.service';
import { PurchaseOperation } from './purchases-switch.interceptor';
import { CreditPurchasesService } from './credit-purchases.service';
import { BuyCreditsDto, CreditPurchaseDto } from './dto/purchase.dto';
import { RequiresScope } from '../common/auth/api-scopes';

@ApiTags('purchases')
@RequiresScope('purchases')
@Controller('v1/credit-purchases')
export class CreditPurchasesController {
  constructor(private readonly purchases: CreditPurchasesService) {}

  @Post()
  @HttpCode(200)
  @PurchaseOperation()
  @ApiOperation({
    operationId: 'buyCredits',
    summary: 'Buy SMS credits with a saved card',
    description: [
      'Needs an Idempotency-Key, and purchases enabled for the API key (Settings > API). Prices per credit ex GST: 500-999 4¢, 1,000-9,999 3.5¢, 10,000-99,999 3¢, 100,000-999,999 2.5¢, 1,000,000+ 2¢; GST 10% rounded to the cent.',
      'With one saved card that card is charged; with several, `card_last4` names it. The key may spend its daily limit (AUD inc. GST) in any 24 hours; over it: 403 with the amount left.',
      'Declined: 402. A payment held for review answers 200 with `state: held` and adds nothing until it is released. A tax invoice naming the key is emailed.',
    ].join(' '),
  })
  @ApiOkResponse({ type: CreditPurchaseDto })
  @ApiErrors(400, 401, 402, 403, 405, 422, 429, 500, 503)
  buy(@CurrentCaller() caller: Caller, @Body() body: BuyCreditsDto, @IdempotencyKey() claim?: IdempotencyClaim) {
    return this.purchases.buy(caller, body, claim);
  }
}
