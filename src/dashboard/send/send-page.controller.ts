import { Body, Get, Post, Query } from '@nestjs/common';
import type { FormBody } from '../../pages/form-body';
import { DashboardController } from '../dashboard-controller.decorator';
import { CurrentUser, type DashboardUser } from '../dashboard-user';
import { PAGES } from '../navigation';
import { SendPageService } from './send-page.service';

@DashboardController(PAGES.send)
export class SendPageController {
  constructor(private readonly sendPage: SendPageService) {}

  @Get()
  page(@CurrentUser() user: DashboardUser, @Query() query: Record<string, unknown>) {
    return this.sendPage.page(user, query);
  }

  @Post()
  send(@CurrentUser() user: DashboardUser, @Body() form: FormBody | undefined) {
    return this.sendPage.send(user, form);
  }

  /** The test send to the user's own verified mobile (charged like any send). */
  @Post('test')
  testSend(@CurrentUser() user: DashboardUser, @Body() form: FormBody | undefined) {
    return this.sendPage.testSend(user, form);
  }

  /** The Preview button of the form (works without JavaScript). */
  @Post('preview')
  previewPage(@CurrentUser() user: DashboardUser, @Body() form: FormBody | undefined) {
    return this.sendPage.previewPage(user, form);
  }

  /** The page's script: the same preview as JSON while the text is typed. */
  @Post('preview.json')
  previewJson(@CurrentUser() user: DashboardUser, @Body() form: FormBody | undefined) {
    return this.sendPage.previewJson(user, form);
  }
}
