import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AccountsService } from '../../accounts/accounts.service';
import { failure } from '../../common/errors/error-catalogue';
import { UnitOfWork } from '../../database/unit-of-work';
import { formText, type FormBody } from '../../pages/form-body';
import { FormError, errorModel, withFormErrors } from '../../pages/form-error';
import { fileDownload, PageResult, redirectTo, view } from '../../pages/page-result';
import { CardsService } from '../../payments/cards.service';
import { TEST_CARDS } from '../../payments/test-cards';
import { dollars, MIN_CREDITS } from '../../purchases/pricing';
import { tierRows } from './tiers';
import { BalanceCrossingsService } from '../../billing/balance-crossings.service';
import { BalanceSettingsService } from '../../recharge/balance-settings.service';
import { DEFAULT_RECHARGES_PER_DAY, MAX_RECHARGES_PER_DAY } from '../../recharge/balance-settings';
import { InvoicesService } from '../../purchases/invoices.service';
import type { Actor } from '../../users/actor';
import { AuditLogService } from '../../users/audit-log.service';
import { normaliseEmail } from '../../users/email';
import { can } from '../../users/permissions';
import type { DashboardUser } from '../dashboard-user';
import { show } from '../format';
import { PAGES } from '../navigation';
import { noticeFor, withNotice } from '../notices';

function requireBilling(actor: Actor): void {
  if (!can(actor, 'manage_billing')) throw failure('permissionRequired');
}

interface Typed {
  card?: string;
  credits?: string;
  autoRecharge?: Record<string, string>;
  warnBelow?: string;
  billingEmail?: string;
}

/** Billing: saved cards (through the payment provider), the billing notification address, and the tax invoices. */
@Injectable()
export class BillingPageService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly cards: CardsService,
    private readonly invoices: InvoicesService,
    private readonly accounts: AccountsService,
    private readonly audit: AuditLogService,
    private readonly balanceSettings: BalanceSettingsService,
    private readonly crossings: BalanceCrossingsService,
  ) {}

  async page(user: DashboardUser, notice?: unknown, error?: FormError, typed: Typed = {}): Promise<PageResult> {
    requireBilling(user);
    const [account, cards, invoices, balance, crossings] = await Promise.all([
      this.accounts.get(user.accountId),
      this.cards.list(user.accountId),
      this.invoices.list(user.accountId),
      this.balanceSettings.show(user.accountId),
      this.crossings.latest(user.accountId, 5),
    ]);
    const recharge = balance.autoRecharge;
    return view(
      'dashboard/views/billing',
      {
        title: 'Billing',
        notice: noticeFor(notice),
        ...errorModel(error),
        simulated: !this.cards.realProvider,
        // Credits bought on a test account are real and carry over when it goes live (the same account and balance); its sends never use them.
        isTest: account.isTest,
        // The form's own key: a double click or a retried post of this form is one purchase.
        purchaseKey: randomUUID(),
        tiers: tierRows(),
        minCredits: MIN_CREDITS,
        typedCredits: typed.credits ?? '',
        autoRecharge: {
          enabled: typed.autoRecharge ? typed.autoRecharge.enabled === 'on' : (recharge?.enabled ?? false),
          below: typed.autoRecharge?.below_credits ?? String(recharge?.belowCredits ?? ''),
          buy: typed.autoRecharge?.buy_credits ?? String(recharge?.buyCredits ?? ''),
          perDay: typed.autoRecharge?.max_per_day ?? String(recharge?.maxPerDay ?? DEFAULT_RECHARGES_PER_DAY),
          cardId: Number(typed.autoRecharge?.card_id ?? recharge?.cardId ?? 0),
          stoppedReason: recharge && !recharge.enabled ? recharge.stoppedReason : '',
          maxPerDay: MAX_RECHARGES_PER_DAY,
        },
        warnBelow: typed.warnBelow ?? (balance.warnBelowCredits === null ? '' : String(balance.warnBelowCredits)),
        crossings: crossings.map((c) => ({
          when: show.time(c.crossedAt, user.timeZone),
          what: c.kind === 'recharge' ? 'Auto-recharge' : 'Low-balance warning',
          balance: show.credits(c.balanceAfter),
          outcome: c.handledAt ? c.outcome : 'in progress',
        })),
        testCards: TEST_CARDS,
        typedCard: typed.card ?? '',
        billingEmail: typed.billingEmail ?? account.billingEmail ?? '',
        cards: cards.map((c) => ({ id: c.id, brand: c.brand, last4: c.last4, expiry: `${String(c.expMonth).padStart(2, '0')}/${c.expYear}` })),
        invoices: invoices.map((p) => ({
          number: p.invoiceNumber,
          date: show.day(p.chargedAt, user.timeZone),
          item: p.kind === 'credits' ? `${p.credits} SMS credits` : `${p.kind === 'renewal' ? 'Renewal of ' : 'Dedicated number '}${p.number}`,
          total: dollars(p.amountIncGstCents),
          key: p.apiKeyLabel,
          state: p.state,
        })),
      },
      error?.status ?? 200,
    );
  }

  /** Saves a card through the provider: a test card number (simulated provider) or a Stripe PaymentMethod id. */
  async addCard(user: DashboardUser, form: FormBody | undefined): Promise<PageResult> {
    requireBilling(user);
    const input = formText(form, 'card');
    return withFormErrors<PageResult>(
      async () => {
        if (input === '') throw failure(this.cards.realProvider ? 'paymentMethodRequired' : 'cardNumberRequired');
        const account = await this.accounts.get(user.accountId);
        const card = await this.cards.add(account, this.cards.realProvider ? { paymentMethodId: input } : { cardNumber: input });
        await this.uow.run((tx) => this.audit.record(user, 'billing.card_added', `${card.brand} ending in ${card.last4}`, tx));
        return redirectTo(withNotice(PAGES.billing.path, 'card_added'));
      },
      // Never echo a card number back into the page.
      (error) => this.page(user, undefined, error, { card: '' }),
    );
  }

  async removeCard(user: DashboardUser, cardId: string): Promise<PageResult> {
    requireBilling(user);
    if (!/^\d{1,9}$/.test(cardId)) throw failure('cardNotFound');
    const card = await this.cards.remove(user.accountId, Number(cardId));
    await this.uow.run((tx) => this.audit.record(user, 'billing.card_removed', `${card.brand} ending in ${card.last4}`, tx));
    return redirectTo(withNotice(PAGES.billing.path, 'card_removed'));
  }

  async setBillingEmail(user: DashboardUser, form: FormBody | undefined): Promise<PageResult> {
    requireBilling(user);
    const typed = formText(form, 'billing_email');
    return withFormErrors<PageResult>(
      async () => {
        const email = typed === '' ? null : normaliseEmail(typed);
        if (typed !== '' && !email) throw failure('billingEmailInvalid');
        await this.uow.run(async (tx) => {
          await this.accounts.setBillingEmail(user.accountId, email, tx);
          await this.audit.record(user, 'billing.email_changed', email ?? 'cleared (invoices go to the owner)', tx);
        });
        return redirectTo(withNotice(PAGES.billing.path, 'billing_email_saved'));
      },
      (error) => this.page(user, undefined, error, { billingEmail: typed }),
    );
  }

  async invoice(user: DashboardUser, invoiceNumber: string): Promise<PageResult> {
    requireBilling(user);
    const { filename, pdf } = await this.invoices.pdf(user.accountId, invoiceNumber);
    return fileDownload('application/pdf', filename, pdf);
  }
}
