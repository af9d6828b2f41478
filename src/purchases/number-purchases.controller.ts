import { Body, Controller, Get, HttpCode, Post, Query, UseInterceptors } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Caller } from '../common/auth/authenticated-request';
import { CurrentCaller } from '../common/auth/current-caller.decorator';
import { ApiErrors } from '../common/http/api-errors.decorator';
import { DEFAULT_LIMIT } from '../common/http/pagination';
import { IdempotencyKey, IdempotencyKeyRequired } from '../idempotency/idempotency.interceptor';
import type { IdempotencyClaim } from '../idempotency/idempotency.service';
import { PurchaseOperation } from './purchases-switch.interceptor';
import { AvailableNumbersDto, AvailableNumbersQuery, BuyNumberDto, DedicatedNumbersDto, NumberPurchaseDto } from './dto/purchase.dto';
import { NumberPurchasesService } from './number-purchases.service';
import { RequiresScope } from '../common/auth/api-scopes';

@ApiTags('purchases')
@Controller('v1')
export class NumberPurchasesController {
  constructor(private readonly numbers: NumberPurchasesService) {}

  @Get('available-numbers')
  @RequiresScope('senders')
  @UseInterceptors(IdempotencyKeyRequired)
  @ApiHeader({
    name: 'Idempotency-Key',
    required: true,
    description: 'Required on every purchase operation (a listing is not replayed).',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  })
  @ApiOperation({
    operationId: 'listAvailableNumbers',
    summary: 'Dedicated numbers for sale',
    description: 'Cheapest first, with the yearly price ex GST; `contains` filters by digits.',
  })
  @ApiOkResponse({ type: AvailableNumbersDto })
  @ApiErrors(400, 401, 405, 429, 503)
  available(@Query() query: AvailableNumbersQuery) {
    return this.numbers.available(query.contains, query.limit ?? DEFAULT_LIMIT);
  }

  @Post('dedicated-numbers')
  @RequiresScope('purchases')
  @HttpCode(200)
  @PurchaseOperation()
  @ApiOperation({
    operationId: 'buyDedicatedNumber',
    summary: 'Buy a dedicated number for 12 months',
    description: [
      'Needs an Idempotency-Key and purchases enabled for the API key, and the free dedicated number claimed first (403 otherwise). The number becomes an active `dedicated` sender at once and renews yearly on the same card.',
      'Card choice, the daily limit, 402 on decline and `state: held` are as for credit purchases. A number already sold: 409.',
    ].join(' '),
  })
  @ApiOkResponse({ type: NumberPurchaseDto })
  @ApiErrors(400, 401, 402, 403, 405, 409, 422, 429, 500, 503)
  buy(@CurrentCaller() caller: Caller, @Body() body: BuyNumberDto, @IdempotencyKey() claim?: IdempotencyClaim) {
    return this.numbers.buy(caller, body, claim);
  }

  @Get('dedicated-numbers')
  @RequiresScope('senders')
  @ApiOperation({
    operationId: 'listDedicatedNumbers',
    summary: "The account's dedicated numbers",
    description: 'The free number and bought numbers, with expiry and renewal state.',
  })
  @ApiOkResponse({ type: DedicatedNumbersDto })
  @ApiErrors(401, 405, 429, 503)
  list(@CurrentCaller() caller: Caller) {
    return this.numbers.list(caller.accountId);
  }
}
