import { Body, Controller, Delete, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Caller } from '../common/auth/authenticated-request';
import { CurrentCaller } from '../common/auth/current-caller.decorator';
import { ApiErrors } from '../common/http/api-errors.decorator';
import { CreateListDto, DeleteListDto, ListCreatedDto, ListDeletedDto, ListRenamedDto, ListsDto, RenameListDto } from './dto/list.dto';
import { ListsService } from './lists.service';

@ApiTags('lists')
@Controller('v1/lists')
export class ListsController {
  constructor(private readonly lists: ListsService) {}

  @Get()
  @ApiOperation({ summary: 'All contact lists, newest first (not paginated)' })
  @ApiOkResponse({ type: ListsDto })
  @ApiErrors(401, 405, 429, 503)
  list(@CurrentCaller() caller: Caller) {
    return this.lists.list(caller.accountId);
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create a list, or return the existing one of that name' })
  @ApiOkResponse({ type: ListCreatedDto })
  @ApiErrors(400, 401, 405, 429, 503)
  create(@CurrentCaller() caller: Caller, @Body() body: CreateListDto) {
    return this.lists.create(caller.accountId, body.name);
  }

  @Patch()
  @ApiOperation({ summary: 'Rename a list' })
  @ApiOkResponse({ type: ListRenamedDto })
  @ApiErrors(400, 401, 404, 405, 409, 429, 503)
  rename(@CurrentCaller() caller: Caller, @Body() body: RenameListDto) {
    return this.lists.rename(caller.accountId, body.list_id, body.name);
  }

  @Delete()
  @HttpCode(200)
  @ApiOperation({ summary: 'Delete a list, and with delete_contacts its member contacts' })
  @ApiOkResponse({ type: ListDeletedDto })
  @ApiErrors(400, 401, 404, 405, 429, 503)
  delete(@CurrentCaller() caller: Caller, @Body() body: DeleteListDto) {
    return this.lists.delete(caller.accountId, body.list_id, body.delete_contacts ?? false);
  }
}
