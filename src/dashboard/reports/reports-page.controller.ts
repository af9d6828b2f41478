import { Get, Query } from '@nestjs/common';
import { DashboardController } from '../dashboard-controller.decorator';
import { CurrentUser, type DashboardUser } from '../dashboard-user';
import { PAGES } from '../navigation';
import { ReportsPageService } from './reports-page.service';

@DashboardController(PAGES.reports)
export class ReportsPageController {
  constructor(private readonly reports: ReportsPageService) {}

  @Get()
  page(@CurrentUser() user: DashboardUser, @Query() query: Record<string, unknown>) {
    return this.reports.page(user, query);
  }

  /** The message history of the chosen days as CSV, streamed. */
  @Get('export.csv')
  export(@CurrentUser() user: DashboardUser, @Query() query: Record<string, unknown>) {
    return this.reports.export(user, query);
  }
}
