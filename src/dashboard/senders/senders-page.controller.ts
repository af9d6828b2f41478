import { Body, Get, Param, Post, Query } from '@nestjs/common';
import type { FormBody } from '../../pages/form-body';
import { DashboardController } from '../dashboard-controller.decorator';
import { CurrentUser, type DashboardUser } from '../dashboard-user';
import { PAGES } from '../navigation';
import { SendersPageService } from './senders-page.service';

/** Sender IDs: active and pending senders, own mobile, the free number, ACMA registrations. */
@DashboardController(PAGES.senders)
export class SendersPageController {
  constructor(private readonly senders: SendersPageService) {}

  @Get()
  show(@CurrentUser() user: DashboardUser, @Query('notice') notice: unknown) {
    return this.senders.page(user, notice);
  }

  @Post('own')
  registerOwn(@CurrentUser() user: DashboardUser, @Body() form: FormBody | undefined) {
    return this.senders.registerOwn(user, form);
  }

  @Post('free-number')
  claimFreeNumber(@CurrentUser() user: DashboardUser, @Body() form: FormBody | undefined) {
    return this.senders.claimFreeNumber(user, form);
  }

  @Post('registrations')
  submitRegistration(@CurrentUser() user: DashboardUser, @Body() form: FormBody | undefined) {
    return this.senders.submitRegistration(user, form);
  }

  @Post(':id/resend')
  resend(@CurrentUser() user: DashboardUser, @Param('id') id: string) {
    return this.senders.resend(user, id);
  }

  @Get(':id/deactivate')
  deactivatePage(@CurrentUser() user: DashboardUser, @Param('id') id: string) {
    return this.senders.deactivatePage(user, id);
  }

  @Post(':id/deactivate')
  deactivate(@CurrentUser() user: DashboardUser, @Param('id') id: string) {
    return this.senders.deactivate(user, id);
  }
}
