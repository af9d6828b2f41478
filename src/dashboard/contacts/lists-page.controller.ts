import { Body, Get, Param, Post, Query } from '@nestjs/common';
import type { FormBody } from '../../pages/form-body';
import { DashboardController } from '../dashboard-controller.decorator';
import { CurrentUser, type DashboardUser } from '../dashboard-user';
import { PAGES } from '../navigation';
import { ListsPageService } from './lists-page.service';

@DashboardController(PAGES.contactLists)
export class ListsPageController {
  constructor(private readonly lists: ListsPageService) {}

  @Get()
  list(@CurrentUser() user: DashboardUser, @Query() query: Record<string, unknown>) {
    return this.lists.list(user, query);
  }

  @Post()
  create(@CurrentUser() user: DashboardUser, @Body() form: FormBody | undefined) {
    return this.lists.create(user, form);
  }

  @Get(':id')
  show(@CurrentUser() user: DashboardUser, @Param('id') id: string, @Query() query: Record<string, unknown>) {
    return this.lists.show(user, id, query);
  }

  @Post(':id/name')
  rename(@CurrentUser() user: DashboardUser, @Param('id') id: string, @Body() form: FormBody | undefined) {
    return this.lists.rename(user, id, form);
  }

  @Post(':id/members')
  addMember(@CurrentUser() user: DashboardUser, @Param('id') id: string, @Body() form: FormBody | undefined) {
    return this.lists.addMember(user, id, form);
  }

  @Post(':id/members/:contactId/remove')
  removeMember(@CurrentUser() user: DashboardUser, @Param('id') id: string, @Param('contactId') contactId: string) {
    return this.lists.removeMember(user, id, contactId);
  }

  @Get(':id/delete')
  confirmDelete(@CurrentUser() user: DashboardUser, @Param('id') id: string) {
    return this.lists.confirmDelete(user, id);
  }

  @Post(':id/delete')
  delete(@CurrentUser() user: DashboardUser, @Param('id') id: string, @Body() form: FormBody | undefined) {
    return this.lists.delete(user, id, form);
  }
}
