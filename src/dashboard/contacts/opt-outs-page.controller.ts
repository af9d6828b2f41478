import { Body, Get, Param, Post, Query } from '@nestjs/common';
import type { FormBody } from '../../pages/form-body';
import { DashboardController } from '../dashboard-controller.decorator';
import { CurrentUser, type DashboardUser } from '../dashboard-user';
import { PAGES } from '../navigation';
import { OptOutsPageService } from './opt-outs-page.service';

@DashboardController(PAGES.optOuts)
export class OptOutsPageController {
  constructor(private readonly optOuts: OptOutsPageService) {}

  @Get()
  list(@CurrentUser() user: DashboardUser, @Query() query: Record<string, unknown>) {
    return this.optOuts.list(user, query);
  }

  @Post()
  add(@CurrentUser() user: DashboardUser, @Body() form: FormBody | undefined) {
    return this.optOuts.add(user, form);
  }

  @Get('export')
  export(@CurrentUser() user: DashboardUser) {
    return this.optOuts.export(user);
  }

  @Get(':number/remove')
  confirmRemove(@CurrentUser() user: DashboardUser, @Param('number') number: string) {
    return this.optOuts.confirmRemove(user, number);
  }

  @Post(':number/remove')
  remove(@CurrentUser() user: DashboardUser, @Param('number') number: string) {
    return this.optOuts.remove(user, number);
  }
}
