import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Caller } from '../common/auth/authenticated-request';
import { CurrentCaller } from '../common/auth/current-caller.decorator';
import { ApiErrors } from '../common/http/api-errors.decorator';
import { pageOf } from '../common/http/pagination';
import { AddListContactDto, ListContactAddedDto, ListContactRemovedDto, ListContactsPageDto, ListContactsQuery, RemoveListContactDto } from './dto/list.dto';
import { ListMembersService } from './list-members.service';
import { RequiresScope } from '../common/auth/api-scopes';

@ApiTags('lists')
@RequiresScope('contacts')
@Controller('v1/list-contacts')
export class ListContactsController {
  constructor(private readonly members: ListMembersService) {}

  @Get()
  @ApiOperation({
    operationId: 'listListContacts',
    summary: 'List the contacts in a list',
    description: 'Newest first, paginated.',
  })
  @ApiOkResponse({ type: ListContactsPageDto })
  @ApiErrors(400, 401, 404, 405, 429, 503)
  page(@CurrentCaller() caller: Caller, @Query() query: ListContactsQuery) {
    return this.members.page(caller.accountId, query.list_id, pageOf(query));
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'addListContact',
    summary: 'Add a contact to a list',
    description: 'By `contact_id`, or by `number` (the contact is created, with the fields given, when the number is new). Adding a member twice is not an error (`added: false`).',
  })
  @ApiOkResponse({ type: ListContactAddedDto })
  @ApiErrors(400, 401, 404, 405, 429, 503)
  add(@CurrentCaller() caller: Caller, @Body() body: AddListContactDto) {
    return this.members.add(caller.accountId, { listId: body.list_id, contactId: body.contact_id, number: body.number, fields: body });
  }

  @Delete()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'removeListContact',
    summary: 'Remove a contact from a list',
    description: 'By `contact_id` or `number`; the contact itself stays in the address book.',
  })
  @ApiOkResponse({ type: ListContactRemovedDto })
  @ApiErrors(400, 401, 404, 405, 429, 503)
  remove(@CurrentCaller() caller: Caller, @Body() body: RemoveListContactDto) {
    return this.members.remove(caller.accountId, { listId: body.list_id, contactId: body.contact_id, number: body.number });
  }
}
