import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Caller } from '../common/auth/authenticated-request';
import { CurrentCaller } from '../common/auth/current-caller.decorator';
import { ApiErrors } from '../common/http/api-errors.decorator';
import { QuietHoursDto, UpdateQuietHoursDto } from './dto/quiet-hours.dto';
import { QuietHoursService } from './quiet-hours.service';
import { RequiresScope } from '../common/auth/api-scopes';

@ApiTags('quiet-hours')
@RequiresScope('account')
@Controller('v1/quiet-hours')
export class QuietHoursController {
  constructor(private readonly quietHours: QuietHoursService) {}

  @Get()
  @ApiOperation({
    operationId: 'getQuietHours',
    summary: 'Get quiet hours',
    description: 'The allowed sending window in each recipient’s local time; off until turned on.',
  })
  @ApiOkResponse({ type: QuietHoursDto })
  @ApiErrors(401, 405, 429, 503)
  get(@CurrentCaller() caller: Caller) {
    return this.quietHours.get(caller.accountId);
  }

  @Patch()
  @ApiOperation({
    operationId: 'updateQuietHours',
    summary: 'Change quiet hours',
    description:
      'When on, list sends move messages that would arrive outside the window to the next allowed minute (status scheduled); POST /v1/messages does so when it sets `respect_quiet_hours`.',
  })
  @ApiOkResponse({ type: QuietHoursDto })
  @ApiErrors(400, 401, 405, 429, 503)
  update(@CurrentCaller() caller: Caller, @Body() body: UpdateQuietHoursDto) {
    return this.quietHours.update(caller.accountId, {
      enabled: body.enabled,
      allowedFrom: body.allowed_from,
      allowedUntil: body.allowed_until,
      days: body.days,
      skipDates: body.skip_dates,
      zoneField: body.zone_field,
    });
  }
}
