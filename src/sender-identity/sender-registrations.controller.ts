import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Caller } from '../common/auth/authenticated-request';
import { CurrentCaller } from '../common/auth/current-caller.decorator';
import { ApiErrors } from '../common/http/api-errors.decorator';
import { pageOf } from '../common/http/pagination';
import type { Actor } from '../users/actor';
import { ApiKeyActor } from '../users/api-key-actor.decorator';
import { RegistrationsPageDto, RegistrationsQuery, RegistrationSubmittedDto, SubmitRegistrationDto } from './dto/sender-registration.dto';
import { toRegistrationSubmitted } from './registrations/sender-registrations.mapper';
import { SenderRegistrationsService } from './registrations/sender-registrations.service';
import { RequiresScope } from '../common/auth/api-scopes';

@ApiTags('senders')
@RequiresScope('senders')
@Controller('v1/sender-registrations')
export class SenderRegistrationsController {
  constructor(private readonly registrations: SenderRegistrationsService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'submitSenderRegistration',
    summary: 'Register an alphanumeric Sender ID (ACMA)',
    description: [
      'Submits a Sender ID for review: 3-11 letters, digits and spaces with at least one letter, the business it identifies and its ABN (11 digits, checksum verified).',
      'Once approved it is an active `alpha` sender; the account owner (and the submitting user) are emailed on approval and rejection.',
      'A brand belongs to one business: a Sender ID with a live registration on another account (case and spaces ignored) is refused, as is one already awaiting review or active here (409).',
      'If this account’s approved Sender ID was deactivated, submitting it again reactivates it at once (`state: approved`).',
    ].join(' '),
  })
  @ApiOkResponse({ type: RegistrationSubmittedDto })
  @ApiErrors(400, 401, 405, 409, 429, 503)
  submit(@ApiKeyActor() actor: Actor, @Body() body: SubmitRegistrationDto) {
    return this.registrations.submit(actor, { sender: body.sender, businessName: body.business_name, abn: body.abn, reason: body.reason }).then(toRegistrationSubmitted);
  }

  @Get()
  @ApiOperation({
    operationId: 'listSenderRegistrations',
    summary: "List the account's Sender ID registrations",
    description: 'Newest first, each `submitted`, `approved` or `rejected` (with `rejection_reason`).',
  })
  @ApiOkResponse({ type: RegistrationsPageDto })
  @ApiErrors(400, 401, 405, 429, 503)
  list(@CurrentCaller() caller: Caller, @Query() query: RegistrationsQuery) {
    return this.registrations.page(caller.accountId, query.state, pageOf(query));
  }
}
