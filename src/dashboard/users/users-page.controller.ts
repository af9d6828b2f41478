import { Body, Get, Param, Post, Query } from '@nestjs/common';
import type { FormBody } from '../../pages/form-body';
import { DashboardController } from '../dashboard-controller.decorator';
import { CurrentUser, type DashboardUser } from '../dashboard-user';
import { PAGES } from '../navigation';
import { UsersPageService } from './users-page.service';

@DashboardController(PAGES.users)
export class UsersPageController {
  constructor(private readonly users: UsersPageService) {}

  @Get()
  list(@CurrentUser() user: DashboardUser, @Query('notice') notice: unknown) {
    return this.users.page(user, notice);
  }

  @Post()
  invite(@CurrentUser() user: DashboardUser, @Body() form: FormBody | undefined) {
    return this.users.invite(user, form);
  }

  @Get(':id')
  edit(@CurrentUser() user: DashboardUser, @Param('id') id: string) {
    return this.users.editPage(user, id);
  }

  @Post(':id/permissions')
  savePermissions(@CurrentUser() user: DashboardUser, @Param('id') id: string, @Body() form: FormBody | undefined) {
    return this.users.savePermissions(user, id, form);
  }

  @Post(':id/reset-two-factor')
  resetTwoFactor(@CurrentUser() user: DashboardUser, @Param('id') id: string) {
    return this.users.resetTwoFactor(user, id);
  }

  @Post(':id/invitation')
  resendInvitation(@CurrentUser() user: DashboardUser, @Param('id') id: string) {
    return this.users.resendInvitation(user, id);
  }

  @Get(':id/remove')
  removePage(@CurrentUser() user: DashboardUser, @Param('id') id: string) {
    return this.users.confirmPage(user, id, 'remove');
  }

  @Post(':id/remove')
  remove(@CurrentUser() user: DashboardUser, @Param('id') id: string) {
    return this.users.remove(user, id);
  }

  @Get(':id/transfer-ownership')
  transferPage(@CurrentUser() user: DashboardUser, @Param('id') id: string) {
    return this.users.confirmPage(user, id, 'transfer');
  }

  @Post(':id/transfer-ownership')
  transfer(@CurrentUser() user: DashboardUser, @Param('id') id: string) {
    return this.users.transferOwnership(user, id);
  }
}
