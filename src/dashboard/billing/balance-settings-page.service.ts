import { Injectable } from '@nestjs/common';
import { failure } from '../../common/errors/error-catalogue';
import { formText, type FormBody } from '../../pages/form-body';
import { withFormErrors } from '../../pages/form-error';
import { PageResult, redirectTo } from '../../pages/page-result';
import { BOUNDS, wholeCredits } from '../../recharge/balance-settings';
import { BalanceSettingsService } from '../../recharge/balance-settings.service';
import { can } from '../../users/permissions';
import type { DashboardUser } from '../dashboard-user';
import { PAGES } from '../navigation';
import { withNotice } from '../notices';
import { BillingPageService } from './billing-page.service';

const FIELDS = ['enabled', 'below_credits', 'buy_credits', 'card_id', 'max_per_day'] as const;

/** Billing › Auto-recharge and the low-balance warning: the two forms' posts. */
@Injectable()
export class BalanceSettingsPageService {
  constructor(
    private readonly settings: BalanceSettingsService,
    private readonly billing: BillingPageService,
  ) {}

  async saveAutoRecharge(user: DashboardUser, form: FormBody | undefined): Promise<PageResult> {
    if (!can(user, 'manage_billing')) throw failure('permissionRequired');
    const typed = Object.fromEntries(FIELDS.map((f) => [f, formText(form, f)]));
    return withFormErrors<PageResult>(
      async () => {
        const enabled = typed.enabled === 'on';
        const cardText = typed.card_id;
        if (cardText === '') throw failure('required', 'card');
        if (!/^\d{1,9}$/.test(cardText)) throw failure('cardNotFound');
        await this.settings.setAutoRecharge(user, {
          enabled,
          belowCredits: wholeCredits(typed.below_credits, 'The threshold', BOUNDS.below.min, BOUNDS.below.max),
          buyCredits: wholeCredits(typed.buy_credits, 'The amount to buy', BOUNDS.buy.min, BOUNDS.buy.max),
          maxPerDay: wholeCredits(typed.max_per_day, 'Recharges a day', BOUNDS.perDay.min, BOUNDS.perDay.max),
          cardId: Number(cardText),
        });
        return redirectTo(withNotice(PAGES.billing.path, enabled ? 'auto_recharge_on' : 'auto_recharge_off'));
      },
      (error) => this.billing.page(user, undefined, error, { autoRecharge: typed }),
    );
  }

  async saveWarning(user: DashboardUser, form: FormBody | undefined): Promise<PageResult> {
    if (!can(user, 'manage_billing')) throw failure('permissionRequired');
    const typed = formText(form, 'warn_below');
    return withFormErrors<PageResult>(
      async () => {
        const below = typed === '' ? null : wholeCredits(typed, 'The warning threshold', BOUNDS.warn.min, BOUNDS.warn.max);
        await this.settings.setWarning(user, below);
        return redirectTo(withNotice(PAGES.billing.path, below === null ? 'warning_off' : 'warning_saved'));
      },
      (error) => this.billing.page(user, undefined, error, { warnBelow: typed }),
    );
  }
}
