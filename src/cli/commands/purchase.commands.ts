import { AccountsModule } from '../../accounts/accounts.module';
import { AccountsService } from '../../accounts/accounts.service';
import { formatUtc } from '../../common/time/format';
import type { PaymentCard } from '../../payments/payment-card.entity';
import { CardsService } from '../../payments/cards.service';
import { PaymentsModule } from '../../payments/payments.module';
import type { Purchase } from '../../purchases/purchase.entity';
import { InvoiceMailer } from '../../purchases/invoice-mailer.service';
import { PurchaseReconciler } from '../../purchases/purchase-reconciler.service';
import { PurchaseSettler } from '../../purchases/purchase-settler.service';
import { PurchasesModule } from '../../purchases/purchases.module';
import { RenewalsService } from '../../purchases/renewals.service';
import { positiveId } from '../cli-args';
import { defineCommand } from '../command';

function cardView(card: PaymentCard) {
  return { card_id: card.id, account_id: card.accountId, provider: card.provider, brand: card.brand, last4: card.last4, exp_month: card.expMonth, exp_year: card.expYear };
}

function purchaseView(p: Purchase) {
  return {
    purchase_id: p.id,
    account_id: p.accountId,
    kind: p.kind,
    state: p.state,
    credits: p.credits,
    number: p.number,
    amount_inc_gst_cents: p.amountIncGstCents,
    card_last4: p.cardLast4,
    invoice_number: p.invoiceNumber,
    settled_at: p.settledAt ? formatUtc(p.settledAt) : null,
  };
}

/** Payments and purchases. */
export const COMMANDS = [
  defineCommand({
    name: 'card:add',
    summary: 'saves a test card of the simulated payment provider (refused when STRIPE_SECRET_KEY is set)',
    options: {
      account: { type: 'string', value: 'ID', required: true, help: 'the account' },
      card: { type: 'string', value: 'NUMBER', required: true, help: 'a test card number such as 4242424242424242' },
    },
    examples: ['--account 1 --card 4242424242424242'],
    modules: [AccountsModule, PaymentsModule],
    run: async (app, v) => {
      const account = await app.get(AccountsService).get(positiveId(v.account, 'account'));
      return cardView(await app.get(CardsService).addTestCard(account, v.card));
    },
  }),

  defineCommand({
    name: 'card:list',
    summary: "the account's saved cards (brand, last 4, expiry)",
    options: { account: { type: 'string', value: 'ID', required: true, help: 'the account' } },
    examples: ['--account 1'],
    modules: [AccountsModule, PaymentsModule],
    run: async (app, v) => {
      const accountId = positiveId(v.account, 'account');
      await app.get(AccountsService).get(accountId);
      return { account_id: accountId, cards: (await app.get(CardsService).list(accountId)).map(cardView) };
    },
  }),

  defineCommand({
    name: 'purchase:release',
    summary: 'a payment held for review: deliver what it bought',
    options: { id: { type: 'string', value: 'ID', required: true, help: 'the purchase' } },
    examples: ['--id 7'],
    modules: [PurchasesModule],
    run: async (app, v) => {
      const released = await app.get(PurchaseSettler).release(positiveId(v.id, 'id'));
      await app.get(InvoiceMailer).drain();
      return purchaseView(released);
    },
  }),

  defineCommand({
    name: 'purchase:refund',
    summary: 'a payment held for review: refund it in full',
    options: { id: { type: 'string', value: 'ID', required: true, help: 'the purchase' } },
    examples: ['--id 7'],
    modules: [PurchasesModule],
    run: async (app, v) => purchaseView(await app.get(PurchaseSettler).refund(positiveId(v.id, 'id'))),
  }),

  defineCommand({
    name: 'purchase:reconcile',
    summary: "settles purchases a crash or a lost provider answer left unsettled, from the provider's record",
    description: 'By default those older than PURCHASE_RECONCILE_AFTER_MS; sends invoice mails a crash lost.',
    options: { all: { type: 'boolean', help: 'every unsettled purchase, whatever its age' } },
    examples: ['', '--all'],
    modules: [PurchasesModule],
    run: async (app, v) => app.get(PurchaseReconciler).run(v.all ? 0 : undefined),
  }),

  defineCommand({
    name: 'renewals:run',
    summary: 'charges due renewals of bought numbers, retries declined ones, releases those past their grace period',
    options: {},
    examples: [''],
    modules: [PurchasesModule],
    run: async (app) => {
      const report = await app.get(RenewalsService).runDue();
      await app.get(InvoiceMailer).drain();
      return report;
    },
  }),
];
