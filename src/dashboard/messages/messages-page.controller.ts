import { Get, Param, Query } from '@nestjs/common';
import { DashboardController } from '../dashboard-controller.decorator';
import { CurrentUser, type DashboardUser } from '../dashboard-user';
import { PAGES } from '../navigation';
import { MessagesPageService } from './messages-page.service';

@DashboardController(PAGES.messages)
export class MessagesPageController {
  constructor(private readonly messages: MessagesPageService) {}

  @Get()
  list(@CurrentUser() user: DashboardUser, @Query() query: Record<string, unknown>) {
    return this.messages.list(user, query);
  }

  @Get(':id')
  message(@CurrentUser() user: DashboardUser, @Param('id') id: string) {
    return this.messages.message(user, id);
  }
}
