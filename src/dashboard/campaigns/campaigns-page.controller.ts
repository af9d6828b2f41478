import { Get, Param, Post, Query } from '@nestjs/common';
import { DashboardController } from '../dashboard-controller.decorator';
import { CurrentUser, type DashboardUser } from '../dashboard-user';
import { PAGES } from '../navigation';
import { CampaignsPageService } from './campaigns-page.service';

@DashboardController(PAGES.campaigns)
export class CampaignsPageController {
  constructor(private readonly campaigns: CampaignsPageService) {}

  @Get()
  list(@CurrentUser() user: DashboardUser, @Query() query: Record<string, unknown>) {
    return this.campaigns.list(user, query);
  }

  @Get(':id')
  campaign(@CurrentUser() user: DashboardUser, @Param('id') id: string, @Query() query: Record<string, unknown>) {
    return this.campaigns.campaign(user, id, query);
  }

  /** The page's script polls this while messages are still moving. */
  @Get(':id/progress.json')
  progress(@CurrentUser() user: DashboardUser, @Param('id') id: string) {
    return this.campaigns.progress(user, id);
  }

  /** The campaign's messages as CSV, streamed. */
  @Get(':id/export.csv')
  export(@CurrentUser() user: DashboardUser, @Param('id') id: string) {
    return this.campaigns.export(user, id);
  }

  /** Cancels what is still scheduled (send_messages). */
  @Post(':id/cancel')
  cancel(@CurrentUser() user: DashboardUser, @Param('id') id: string) {
    return this.campaigns.cancel(user, id);
  }
}
