import { Body, Get, Post, Query } from '@nestjs/common';
import type { FormBody } from '../../pages/form-body';
import { DashboardController } from '../dashboard-controller.decorator';
import { CurrentUser, type DashboardUser } from '../dashboard-user';
import { PAGES } from '../navigation';
import { GoLivePageService } from './go-live-page.service';

/** Go live: a test account's owner asks for a live account and sees where the request stands. */
@DashboardController(PAGES.goLive)
export class GoLivePageController {
  constructor(private readonly goLive: GoLivePageService) {}

  @Get()
  show(@CurrentUser() user: DashboardUser, @Query('notice') notice: unknown) {
    return this.goLive.page(user, notice);
  }

  @Post()
  request(@CurrentUser() user: DashboardUser, @Body() form: FormBody | undefined) {
    return this.goLive.request(user, form);
  }
}
