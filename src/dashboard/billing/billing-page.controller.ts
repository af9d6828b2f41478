import { Body, Get, Param, Post, Query } from '@nestjs/common';
import type { FormBody } from '../../pages/form-body';
import { DashboardController } from '../dashboard-controller.decorator';
import { CurrentUser, type DashboardUser } from '../dashboard-user';
import { PAGES } from '../navigation';
import { BillingPageService } from './billing-page.service';
import { BuyCreditsPageService } from './buy-credits-page.service';
import { BalanceSettingsPageService } from './balance-settings-page.service';
import { StatementPageService } from './statement-page.service';

@DashboardController(PAGES.billing)
export class BillingPageController {
  constructor(
    private readonly billing: BillingPageService,
    private readonly buying: BuyCreditsPageService,
    private readonly balance: BalanceSettingsPageService,
    private readonly statement: StatementPageService,
  ) {}

  @Get()
  show(@CurrentUser() user: DashboardUser, @Query('notice') notice: unknown) {
    return this.billing.page(user, notice);
  }

  @Post('cards')
  addCard(@CurrentUser() user: DashboardUser, @Body() form: FormBody | undefined) {
    return this.billing.addCard(user, form);
  }

  @Post('cards/:id/remove')
  removeCard(@CurrentUser() user: DashboardUser, @Param('id') id: string) {
    return this.billing.removeCard(user, id);
  }

  @Post('notification-address')
  setBillingEmail(@CurrentUser() user: DashboardUser, @Body() form: FormBody | undefined) {
    return this.billing.setBillingEmail(user, form);
  }

  @Post('credits')
  buyCredits(@CurrentUser() user: DashboardUser, @Body() form: FormBody | undefined) {
    return this.buying.buy(user, form);
  }

  @Post('auto-recharge')
  saveAutoRecharge(@CurrentUser() user: DashboardUser, @Body() form: FormBody | undefined) {
    return this.balance.saveAutoRecharge(user, form);
  }

  @Post('low-balance-warning')
  saveWarning(@CurrentUser() user: DashboardUser, @Body() form: FormBody | undefined) {
    return this.balance.saveWarning(user, form);
  }

  @Get('statement')
  statementPage(@CurrentUser() user: DashboardUser, @Query() query: Record<string, unknown>) {
    return this.statement.page(user, query);
  }

  @Get('statement/csv')
  statementCsv(@CurrentUser() user: DashboardUser) {
    return this.statement.csv(user);
  }

  @Get('purchases/:id')
  purchase(@CurrentUser() user: DashboardUser, @Param('id') id: string) {
    return this.buying.result(user, id);
  }

  @Get('invoices/:number')
  invoice(@CurrentUser() user: DashboardUser, @Param('number') invoiceNumber: string) {
    return this.billing.invoice(user, invoiceNumber);
  }
}
