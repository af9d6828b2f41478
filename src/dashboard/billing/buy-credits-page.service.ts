import { Injectable } from '@nestjs/common';
import { AccountsService } from '../../accounts/accounts.service';
import { failure } from '../../common/errors/error-catalogue';
import { formText, type FormBody } from '../../pages/form-body';
import { withFormErrors } from '../../pages/form-error';
import { PageResult, redirectTo, view } from '../../pages/page-result';
import { AccountPurchasesService } from '../../purchases/account-purchases.service';
import { creditsError } from '../../purchases/purchase-input';
import { dollars, MIN_CREDITS } from '../../purchases/pricing';
import type { Purchase } from '../../purchases/purchase.entity';
import { can } from '../../users/permissions';
import type { DashboardUser } from '../dashboard-user';
import { show } from '../format';
import { PAGES } from '../navigation';
import { BillingPageService } from './billing-page.service';

/** A form's own key: a UUID the page rendered (what a double click or a retried form sends twice). */
const FORM_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Billing › Buy credits: the form's post and the page that shows what it did. */
@Injectable()
export class BuyCreditsPageService {
  constructor(
    private readonly purchases: AccountPurchasesService,
    private readonly accounts: AccountsService,
    private readonly billing: BillingPageService,
  ) {}

  async buy(user: DashboardUser, form: FormBody | undefined): Promise<PageResult> {
    if (!can(user, 'manage_billing')) throw failure('permissionRequired');
    const typed = formText(form, 'credits');
    return withFormErrors<PageResult>(
      async () => {
        const formKey = formText(form, 'purchase_key');
        if (!FORM_KEY.test(formKey)) throw failure('csrfTokenInvalid');
        const credits = creditsOf(typed);
        const cardText = formText(form, 'card_id');
        if (cardText === '') throw failure('required', 'card');
        if (!/^\d{1,9}$/.test(cardText)) throw failure('cardNotFound');
        const purchase = await this.purchases.buyCreditsOnPage(user, formKey, credits, Number(cardText));
        return redirectTo(`${PAGES.billing.path}/purchases/${purchase.id}`);
      },
      (error) => this.billing.page(user, undefined, error, { credits: typed }),
    );
  }

  async result(user: DashboardUser, idText: string): Promise<PageResult> {
    if (!can(user, 'manage_billing')) throw failure('permissionRequired');
    if (!/^\d{1,15}$/.test(idText)) throw failure('purchaseNotFound', 0);
    const purchase = await this.purchases.get(user.accountId, Number(idText));
    const account = await this.accounts.get(user.accountId);
    return view(
      'dashboard/views/billing-purchase',
      {
        title: titleOf(purchase),
        state: purchase.state,
        declined: purchase.state === 'declined',
        held: purchase.state === 'held',
        done: purchase.state === 'fulfilled',
        pending: purchase.state === 'created' || purchase.state === 'charged',
        item: purchase.kind === 'credits' ? `${purchase.credits} SMS credits` : `Dedicated number ${purchase.number}`,
        exGst: dollars(purchase.amountExGstCents),
        gst: dollars(purchase.gstCents),
        total: dollars(purchase.amountIncGstCents),
        card: purchase.cardLast4,
        invoice: purchase.invoiceNumber,
        balance: show.credits(account.creditBalance),
        isTest: account.isTest,
        minCredits: MIN_CREDITS,
      },
      purchase.state === 'declined' ? 402 : 200,
    );
  }
}

/** The typed quantity (digits, with spaces or commas between thousands), by the API's rules and texts. */
function creditsOf(typed: string): number {
  if (typed === '') throw failure('required', 'credits');
  const digits = typed.replace(/[\s,]/g, '');
  const credits = /^\d{1,9}$/.test(digits) ? Number(digits) : NaN;
  const error = creditsError(credits);
  if (error) throw failure('invalidField', error);
  return credits;
}

function titleOf(p: Purchase): string {
  if (p.state === 'fulfilled') return 'Credits bought';
  if (p.state === 'declined') return 'Payment declined';
  if (p.state === 'held') return 'Payment held for review';
  return 'Purchase in progress';
}
