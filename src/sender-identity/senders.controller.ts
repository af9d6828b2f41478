import { Body, Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Caller } from '../common/auth/authenticated-request';
import { CurrentCaller } from '../common/auth/current-caller.decorator';
import { ApiErrors, ErrorEnvelopeDto } from '../common/http/api-errors.decorator';
import { SendersService } from '../senders/senders.service';
import { SendersResponseDto } from '../senders/dto/senders-response.dto';
import type { Actor } from '../users/actor';
import { ApiKeyActor } from '../users/api-key-actor.decorator';
import { OwnSenderRegisteredDto, RegisterOwnSenderDto, RemoveSenderDto, SenderRemovedDto } from './dto/own-sender.dto';
import { toOwnSenderRegistered, toSenderRemoved } from './sender-identity.mapper';
import { OwnMobileService } from './own-mobile/own-mobile.service';
import { SenderRemovalService } from './sender-removal.service';
import { RequiresScope } from '../common/auth/api-scopes';

@ApiTags('senders')
@RequiresScope('senders')
@Controller('v1/senders')
export class SendersController {
  constructor(
    private readonly senders: SendersService,
    private readonly ownMobile: OwnMobileService,
    private readonly removal: SenderRemovalService,
  ) {}

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

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'registerOwnSender',
    summary: 'Register your own mobile as a sender',
    description: [
      'Texts a confirmation link to the mobile (from our own Sender ID, at no charge to the account); the number becomes an active `own` sender when the link is opened (it works once, for 24 hours).',
      'Registering a number that is still waiting sends a new link (older ones stop working); at most 3 confirmation texts go to one number in any hour, then 429 with `Retry-After`.',
      'Confirmation texts are also budgeted per account, per API key and per client address, per hour and per day (defaults 5/20, 3/10 and 5/20): past a budget, 429 with `Retry-After`.',
      'For a test account the text is simulated (it reaches no phone) and the answer carries `test_confirmation_url`, the link to open instead.',
      'A number already active on the account: 409.',
    ].join(' '),
  })
  @ApiOkResponse({ type: OwnSenderRegisteredDto })
  @ApiErrors(400, 401, 405, 409, 503)
  @ApiResponse({
    status: 429,
    description: "Too many concurrent requests, 3 confirmation texts to this number in the last hour, or the account's, key's or address's confirmation budget spent",
    type: ErrorEnvelopeDto,
  })
  register(@ApiKeyActor() actor: Actor, @Body() body: RegisterOwnSenderDto) {
    return this.ownMobile.register(actor, { number: body.number, label: body.label }).then(toOwnSenderRegistered);
  }

  @Delete()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'removeSender',
    summary: 'Deactivate a sender',
    description:
      'Deactivates an `own` or `alpha` sender at once (or withdraws a mobile still waiting for its link). Dedicated numbers end with their subscription and shared numbers are assigned by us: 409. An approved Sender ID stays registered to the account; registering it again reactivates it.',
  })
  @ApiOkResponse({ type: SenderRemovedDto })
  @ApiErrors(400, 401, 404, 405, 409, 429, 503)
  remove(@ApiKeyActor() actor: Actor, @Body() body: RemoveSenderDto) {
    return this.removal.deactivate(actor, body.sender).then(toSenderRemoved);
  }
}
