import { Body, Get, Post, Query } from '@nestjs/common';
import type { FormBody } from '../../pages/form-body';
import { DashboardController } from '../dashboard-controller.decorator';
import { CurrentUser, type DashboardUser } from '../dashboard-user';
import { PAGES } from '../navigation';
import { SecurityPageService } from './security-page.service';

@DashboardController(PAGES.security)
export class SecurityPageController {
  constructor(private readonly security: SecurityPageService) {}

  @Get()
  show(@CurrentUser() user: DashboardUser, @Query('notice') notice: unknown) {
    return this.security.page(user, notice);
  }

  @Post('release-brake')
  releaseBrake(@CurrentUser() user: DashboardUser) {
    return this.security.releaseBrake(user);
  }

  @Post('two-factor')
  setRequired(@CurrentUser() user: DashboardUser, @Body() form: FormBody | undefined) {
    return this.security.setRequired(user, form);
  }
}
