import { Controller, Get, Header, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Caller } from '../common/auth/authenticated-request';
import { CurrentCaller } from '../common/auth/current-caller.decorator';
import { ApiErrors } from '../common/http/api-errors.decorator';
import { pageOf } from '../common/http/pagination';
import { ConsentExportQuery, ConsentPageDto, ConsentQuery } from './dto/consent.dto';
import { ConsentService } from './consent.service';
import { RequiresScope } from '../common/auth/api-scopes';

@ApiTags('consent')
@RequiresScope('contacts')
@Controller('v1/consent')
export class ConsentController {
  constructor(private readonly consent: ConsentService) {}

  @Get()
  @ApiOperation({
    operationId: 'listConsentRecords',
    summary: 'List consent records',
    description: 'Every opt-in and opt-out of a number (or in a period), oldest first, with how it happened and its evidence. Records are never changed or removed.',
  })
  @ApiOkResponse({ type: ConsentPageDto })
  @ApiErrors(400, 401, 405, 429, 503)
  page(@CurrentCaller() caller: Caller, @Query() query: ConsentQuery) {
    return this.consent.page(caller.accountId, query, pageOf(query));
  }

  @Get('export')
  @Header('Content-Type', 'text/csv; charset=utf-8')
  @Header('Content-Disposition', 'attachment; filename="consent.csv"')
  // Errors stay JSON envelopes; the 200 is the CSV.
  @ApiProduces('text/csv', 'application/json')
  @ApiOperation({
    operationId: 'exportConsentRecords',
    summary: 'Export consent records as CSV',
    description: 'The records of a number or a period (at most 100000 lines), oldest first, as the list shows them.',
  })
  @ApiOkResponse({
    description: 'CSV (text/csv) with a header line',
    schema: {
      type: 'string',
      example:
        'number,change,source,recorded_at,inbound_message_id,message_id,client_address,api_key_id,user_id,detail\r\n61412345678,opt_out,reply,2026-11-21 06:10:00,3f2c1a9e-8b7d-4e6f-9a1b-2c3d4e5f6a7b,,,,,\r\n',
    },
  })
  @ApiErrors(400, 401, 405, 429, 503)
  export(@CurrentCaller() caller: Caller, @Query() query: ConsentExportQuery) {
    return this.consent.csv(caller.accountId, query);
  }
}
