import { Body, Get, Post, Query } from '@nestjs/common';
import type { FormBody } from '../../pages/form-body';
import { DashboardController } from '../dashboard-controller.decorator';
import { CurrentUser, type DashboardUser } from '../dashboard-user';
import { PAGES } from '../navigation';
import { TimeZonePageService } from './time-zone-page.service';

@DashboardController(PAGES.timeZone)
export class TimeZonePageController {
  constructor(private readonly timeZone: TimeZonePageService) {}

  @Get()
  show(@CurrentUser() user: DashboardUser, @Query('notice') notice: unknown) {
    return this.timeZone.page(user, notice);
  }

  @Post()
  update(@CurrentUser() user: DashboardUser, @Body() form: FormBody | undefined) {
    return this.timeZone.update(user, form);
  }
}
