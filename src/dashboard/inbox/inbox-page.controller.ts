import { Body, Get, Param, Post, Query } from '@nestjs/common';
import type { FormBody } from '../../pages/form-body';
import { DashboardController } from '../dashboard-controller.decorator';
import { CurrentUser, type DashboardUser } from '../dashboard-user';
import { PAGES } from '../navigation';
import { InboxPageService } from './inbox-page.service';

@DashboardController(PAGES.inbox)
export class InboxPageController {
  constructor(private readonly inbox: InboxPageService) {}

  @Get()
  list(@CurrentUser() user: DashboardUser, @Query() query: Record<string, unknown>) {
    return this.inbox.list(user, query);
  }

  @Get(':mobile')
  thread(@CurrentUser() user: DashboardUser, @Param('mobile') mobile: string, @Query() query: Record<string, unknown>) {
    return this.inbox.thread(user, mobile, query);
  }

  @Post(':mobile/reply')
  reply(@CurrentUser() user: DashboardUser, @Param('mobile') mobile: string, @Body() form: FormBody | undefined) {
    return this.inbox.reply(user, mobile, form);
  }
}
