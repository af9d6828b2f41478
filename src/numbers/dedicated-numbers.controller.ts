import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../common/http/api-errors.decorator';
import type { Actor } from '../users/actor';
import { ApiKeyActor } from '../users/api-key-actor.decorator';
import { ClaimFreeNumberDto, FreeNumberClaimedDto, ServiceAddressFieldsDto } from './dto/free-number.dto';
import { FreeNumberService } from './free-number.service';
import { toFreeNumberClaimed } from './numbers.mapper';
import { RequiresScope } from '../common/auth/api-scopes';

@ApiTags('senders')
@ApiExtraModels(ServiceAddressFieldsDto)
@RequiresScope('senders')
@Controller('v1/dedicated-numbers')
export class DedicatedNumbersController {
  constructor(private readonly freeNumber: FreeNumberService) {}

  @Post('free')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'claimFreeDedicatedNumber',
    summary: 'Claim the free dedicated number',
    description: [
      'Assigns one number from our inventory to the account, once (a second claim: 409), and records its service address (a street address in Australia).',
      'The number is an active `dedicated` sender at once and can receive replies. Buying further dedicated numbers requires this claim first.',
      'No number left in the inventory: 409.',
    ].join(' '),
  })
  @ApiOkResponse({ type: FreeNumberClaimedDto })
  @ApiErrors(400, 401, 405, 409, 429, 503)
  claim(@ApiKeyActor() actor: Actor, @Body() body: ClaimFreeNumberDto) {
    return this.freeNumber.claim(actor, body.service_address).then(toFreeNumberClaimed);
  }
}
