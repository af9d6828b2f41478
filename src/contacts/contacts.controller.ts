import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Caller } from '../common/auth/authenticated-request';
import { CurrentCaller } from '../common/auth/current-caller.decorator';
import { ApiErrors } from '../common/http/api-errors.decorator';
import { pageOf } from '../common/http/pagination';
import { ContactsService } from './contacts.service';
import { ContactCreatedDto, ContactDeletedDto, ContactsPageDto, ContactsQuery, ContactUpdatedDto, CreateContactDto, DeleteContactDto, UpdateContactDto } from './dto/contact.dto';
import { RequiresScope } from '../common/auth/api-scopes';

@ApiTags('contacts')
@RequiresScope('contacts')
@Controller('v1/contacts')
export class ContactsController {
  constructor(private readonly contacts: ContactsService) {}

  @Get()
  @ApiOperation({
    operationId: 'listContacts',
    summary: 'List contacts',
    description: 'Newest first. `number` matches exactly after normalisation; the text fields match case-insensitive substrings; filters combine with AND.',
  })
  @ApiOkResponse({ type: ContactsPageDto })
  @ApiErrors(400, 401, 405, 429, 503)
  list(@CurrentCaller() caller: Caller, @Query() query: ContactsQuery) {
    return this.contacts.list(caller.accountId, { number: query.number, fields: query }, pageOf(query));
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'createContact',
    summary: 'Add a contact',
    description:
      'The number is normalised; a number already in the address book is refused with 409 unless the account allows duplicate contacts. Unset text fields read as empty strings.',
  })
  @ApiOkResponse({ type: ContactCreatedDto })
  @ApiErrors(400, 401, 405, 409, 429, 500, 503)
  create(@CurrentCaller() caller: Caller, @Body() body: CreateContactDto) {
    return this.contacts.create(caller.accountId, { number: body.number, fields: body });
  }

  @Patch()
  @ApiOperation({
    operationId: 'updateContact',
    summary: 'Update a contact',
    description: 'Only the fields supplied change; a new number is normalised and checked for duplicates.',
  })
  @ApiOkResponse({ type: ContactUpdatedDto })
  @ApiErrors(400, 401, 404, 405, 409, 429, 503)
  update(@CurrentCaller() caller: Caller, @Body() body: UpdateContactDto) {
    return this.contacts.update(caller.accountId, { contactId: body.contact_id, number: body.number, fields: body });
  }

  @Delete()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'deleteContact',
    summary: 'Delete a contact',
    description: 'Also removes it from every list. Deleting a contact that does not exist is not an error (`removed: false`).',
  })
  @ApiOkResponse({ type: ContactDeletedDto })
  @ApiErrors(400, 401, 405, 429, 503)
  delete(@CurrentCaller() caller: Caller, @Body() body: DeleteContactDto) {
    return this.contacts.delete(caller.accountId, body.contact_id);
  }
}
