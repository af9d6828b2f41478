import { Body, Get, Post, Query } from '@nestjs/common';
import type { FormBody } from '../../pages/form-body';
import { DashboardController } from '../dashboard-controller.decorator';
import { CurrentUser, type DashboardUser } from '../dashboard-user';
import { PAGES } from '../navigation';
import { WebhooksPageService } from './webhooks-page.service';

@DashboardController(PAGES.webhooks)
export class WebhooksPageController {
  constructor(private readonly webhooks: WebhooksPageService) {}

  @Get()
  show(@CurrentUser() user: DashboardUser, @Query() query: Record<string, unknown>) {
    return this.webhooks.page(user, query);
  }

  @Post()
  update(@CurrentUser() user: DashboardUser, @Body() form: FormBody | undefined) {
    return this.webhooks.update(user, form);
  }

  @Post('test-event')
  testEvent(@CurrentUser() user: DashboardUser, @Body() form: FormBody | undefined) {
    return this.webhooks.sendTestEvent(user, form);
  }

  @Post('redeliver')
  redeliver(@CurrentUser() user: DashboardUser, @Body() form: FormBody | undefined) {
    return this.webhooks.redeliver(user, form);
  }

  @Post('signing-secret')
  rotate(@CurrentUser() user: DashboardUser) {
    return this.webhooks.rotateSecret(user);
  }
}
