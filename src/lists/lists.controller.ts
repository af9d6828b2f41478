import { Body, Controller, Delete, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Caller } from '../common/auth/authenticated-request';
import { CurrentCaller } from '../common/auth/current-caller.decorator';
import { ApiErrors } from '../common/http/api-errors.decorator';
import { CreateListDto, DeleteListDto, ListCreatedDto, ListDeletedDto, ListRenamedDto, ListsDto, RenameListDto } from './dto/list.dto';
import { ListsService } from './lists.service';
import { RequiresScope } from '../common/auth/api-scopes';

@ApiTags('lists')
@RequiresScope('contacts')
@Controller('v1/lists')
export class ListsController {
  constructor(private readonly lists: ListsService) {}

  @Get()
  @ApiOperation({
    operationId: 'listLists',
    summary: 'List contact lists',
    description: 'Every list of the account with its member count, newest first. Not paginated.',
  })
  @ApiOkResponse({ type: ListsDto })
  @ApiErrors(401, 405, 429, 503)
  list(@CurrentCaller() caller: Caller) {
    return this.lists.list(caller.accountId);
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'createList',
    summary: 'Create a list (get-or-create)',
    description: 'Returns the existing list of that name (`existing: true`) instead of making a second one.',
  })
  @ApiOkResponse({ type: ListCreatedDto })
  @ApiErrors(400, 401, 405, 429, 503)
  create(@CurrentCaller() caller: Caller, @Body() body: CreateListDto) {
    return this.lists.create(caller.accountId, body.name);
  }

  @Patch()
  @ApiOperation({
    operationId: 'renameList',
    summary: 'Rename a list',
    description: '404 when the list does not exist or the name is unchanged; 409 when another list has the name.',
  })
  @ApiOkResponse({ type: ListRenamedDto })
  @ApiErrors(400, 401, 404, 405, 409, 429, 503)
  rename(@CurrentCaller() caller: Caller, @Body() body: RenameListDto) {
    return this.lists.rename(caller.accountId, body.list_id, body.name);
  }

  @Delete()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'deleteList',
    summary: 'Delete a list',
    description: 'Deletes the list and its memberships; the contacts stay unless `delete_contacts` is true, which deletes them permanently.',
  })
  @ApiOkResponse({ type: ListDeletedDto })
  @ApiErrors(400, 401, 404, 405, 429, 503)
  delete(@CurrentCaller() caller: Caller, @Body() body: DeleteListDto) {
    return this.lists.delete(caller.accountId, body.list_id, body.delete_contacts ?? false);
  }
}
