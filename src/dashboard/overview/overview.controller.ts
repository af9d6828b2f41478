import { Get, Query } from '@nestjs/common';
import { DashboardController } from '../dashboard-controller.decorator';
import { CurrentUser, type DashboardUser } from '../dashboard-user';
import { PAGES } from '../navigation';
import { OverviewPageService } from './overview-page.service';

@DashboardController(PAGES.overview)
export class OverviewController {
  constructor(private readonly overview: OverviewPageService) {}

  @Get()
  show(@CurrentUser() user: DashboardUser, @Query('notice') notice: unknown) {
    return this.overview.page(user, notice);
  }
}
