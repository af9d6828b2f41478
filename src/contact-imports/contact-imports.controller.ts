import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Caller } from '../common/auth/authenticated-request';
import { CurrentCaller } from '../common/auth/current-caller.decorator';
import { ApiErrors } from '../common/http/api-errors.decorator';
import { ContactImportsService } from './contact-imports.service';
import { ContactImportDto, ContactImportQuery, CreateContactImportDto } from './dto/contact-import.dto';
import { RequiresScope } from '../common/auth/api-scopes';

@ApiTags('contacts')
@RequiresScope('contacts')
@Controller('v1/contact-imports')
export class ContactImportsController {
  constructor(private readonly imports: ContactImportsService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'createContactImport',
    summary: 'Import contacts from a CSV (as a job)',
    description:
      'Stores the file and answers at once with the import (`state: queued`); a worker then writes the contacts in chunks. Poll GET /v1/contact-imports for progress and the report. ' +
      'Numbers are normalised; a number already in the account updates that contact (only the mapped fields); a number repeated in the file keeps its first line; ' +
      'invalid lines are skipped and reported with their reason; numbers on the unsubscribe list are imported but not added to the list. ' +
      'With `consent_source`, every other number it writes gets an opt-in consent record. An import whose runs keep failing ends `failed` after a bounded number of attempts, with the reason in `failure`. ' +
      'The header row and the mapping are checked before the import is stored (400 with what to fix).',
  })
  @ApiOkResponse({ type: ContactImportDto })
  @ApiErrors(400, 401, 404, 405, 413, 429, 503)
  create(@CurrentCaller() caller: Caller, @Body() body: CreateContactImportDto) {
    return this.imports.create(caller.accountId, {
      csv: body.csv,
      mapping: body.mapping,
      listId: body.list_id,
      origin: 'api',
      consentSource: body.consent_source,
      apiKeyId: caller.apiKeyId,
    });
  }

  @Get()
  @ApiOperation({
    operationId: 'getContactImport',
    summary: 'An import’s progress and report',
    description: 'State, counts so far, and every invalid, repeated and opted-out line (the lists grow while the import runs).',
  })
  @ApiOkResponse({ type: ContactImportDto })
  @ApiErrors(400, 401, 404, 405, 429, 503)
  get(@CurrentCaller() caller: Caller, @Query() query: ContactImportQuery) {
    return this.imports.get(caller.accountId, query.import_id);
  }
}
