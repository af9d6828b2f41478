import { Body, Get, Param, Post, Query } from '@nestjs/common';
import type { FormBody } from '../../pages/form-body';
import { DashboardController } from '../dashboard-controller.decorator';
import { CurrentUser, type DashboardUser } from '../dashboard-user';
import { PAGES } from '../navigation';
import { ApiKeysPageService } from './api-keys-page.service';

@DashboardController(PAGES.apiKeys)
export class ApiKeysPageController {
  constructor(private readonly keys: ApiKeysPageService) {}

  @Get()
  show(@CurrentUser() user: DashboardUser, @Query('notice') notice: unknown) {
    return this.keys.page(user, notice);
  }

  @Post('keys')
  create(@CurrentUser() user: DashboardUser, @Body() form: FormBody | undefined) {
    return this.keys.create(user, form);
  }

  @Get('keys/:id/revoke')
  revokePage(@CurrentUser() user: DashboardUser, @Param('id') id: string) {
    return this.keys.revokePage(user, id);
  }

  @Post('keys/:id/revoke')
  revoke(@CurrentUser() user: DashboardUser, @Param('id') id: string) {
    return this.keys.revoke(user, id);
  }

  @Post('keys/:id/access')
  access(@CurrentUser() user: DashboardUser, @Param('id') id: string, @Body() form: FormBody | undefined) {
    return this.keys.access(user, id, form);
  }

  @Post('keys/:id/purchases')
  purchases(@CurrentUser() user: DashboardUser, @Param('id') id: string, @Body() form: FormBody | undefined) {
    return this.keys.purchases(user, id, form);
  }
}
