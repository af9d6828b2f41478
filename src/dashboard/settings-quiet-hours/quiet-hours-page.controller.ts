import { Body, Get, Post, Query } from '@nestjs/common';
import type { FormBody } from '../../pages/form-body';
import { DashboardController } from '../dashboard-controller.decorator';
import { CurrentUser, type DashboardUser } from '../dashboard-user';
import { PAGES } from '../navigation';
import { QuietHoursPageService } from './quiet-hours-page.service';

@DashboardController(PAGES.quietHours)
export class QuietHoursPageController {
  constructor(private readonly quietHours: QuietHoursPageService) {}

  @Get()
  show(@CurrentUser() user: DashboardUser, @Query('notice') notice: unknown) {
    return this.quietHours.page(user, notice);
  }

  @Post()
  update(@CurrentUser() user: DashboardUser, @Body() form: FormBody | undefined) {
    return this.quietHours.update(user, form);
  }
}
