import { Body, Get, Param, Post, Query } from '@nestjs/common';
import type { FormBody } from '../../pages/form-body';
import { DashboardController } from '../dashboard-controller.decorator';
import { CurrentUser, type DashboardUser } from '../dashboard-user';
import { PAGES } from '../navigation';
import { ContactsPageService } from './contacts-page.service';

@DashboardController(PAGES.contacts)
export class ContactsPageController {
  constructor(private readonly contacts: ContactsPageService) {}

  @Get()
  list(@CurrentUser() user: DashboardUser, @Query() query: Record<string, unknown>) {
    return this.contacts.list(user, query);
  }

  @Post()
  create(@CurrentUser() user: DashboardUser, @Body() form: FormBody | undefined) {
    return this.contacts.create(user, form);
  }

  @Get('new')
  newForm() {
    return this.contacts.newForm();
  }

  @Get(':id')
  edit(@CurrentUser() user: DashboardUser, @Param('id') id: string, @Query('notice') notice: unknown) {
    return this.contacts.edit(user, id, notice);
  }

  @Post(':id')
  save(@CurrentUser() user: DashboardUser, @Param('id') id: string, @Body() form: FormBody | undefined) {
    return this.contacts.save(user, id, form);
  }

  @Post(':id/lists')
  addToList(@CurrentUser() user: DashboardUser, @Param('id') id: string, @Body() form: FormBody | undefined) {
    return this.contacts.addToList(user, id, form);
  }

  @Post(':id/lists/:listId/remove')
  removeFromList(@CurrentUser() user: DashboardUser, @Param('id') id: string, @Param('listId') listId: string) {
    return this.contacts.removeFromList(user, id, listId);
  }

  @Get(':id/delete')
  confirmDelete(@CurrentUser() user: DashboardUser, @Param('id') id: string) {
    return this.contacts.confirmDelete(user, id);
  }

  @Post(':id/delete')
  delete(@CurrentUser() user: DashboardUser, @Param('id') id: string) {
    return this.contacts.delete(user, id);
  }
}
