import { AccountsService } from '../accounts/accounts.service';
import { formatUtc } from '../common/time/format';
import type { PaymentCard } from '../payments/payment-card.entity';
import { CardsService } from '../payments/cards.service';
import type { Purchase } from '../purchases/purchase.entity';
import { PurchaseReconciler } from '../purchases/purchase-reconciler.service';
import { PurchaseSettler } from '../purchases/purchase-settler.service';
import { InvoiceMailer } from '../purchases/invoice-mailer.service';
import { RenewalsService } from '../purchases/renewals.service';
import { parseCommandArgs, requireId, requireString } from './cli-args';
import type { Command } from './commands';

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

/** Operator commands of payments and purchases. */
export const PURCHASE_COMMANDS: Record<string, Command> = {
  /** Saves a test card with the simulated provider (refused when a real provider is configured). */
  'card:add': async (app, argv) => {
    const v = parseCommandArgs(argv, { account: { type: 'string' }, card: { type: 'string' } });
    const account = await app.get(AccountsService).get(requireId(v, 'account'));
    return cardView(await app.get(CardsService).addTestCard(account, requireString(v, 'card')));
  },

  'card:list': async (app, argv) => {
    const accountId = requireId(parseCommandArgs(argv, { account: { type: 'string' } }), 'account');
    await app.get(AccountsService).get(accountId);
    return { account_id: accountId, cards: (await app.get(CardsService).list(accountId)).map(cardView) };
  },

  'purchase:release': async (app, argv) => {
    const id = requireId(parseCommandArgs(argv, { id: { type: 'string' } }), 'id');
    const released = await app.get(PurchaseSettler).release(id);
    await app.get(InvoiceMailer).drain();
    return purchaseView(released);
  },

  'purchase:refund': async (app, argv) => {
    const id = requireId(parseCommandArgs(argv, { id: { type: 'string' } }), 'id');
    return purchaseView(await app.get(PurchaseSettler).refund(id));
  },

  /** Settles every purchase left unsettled (by default only those older than PURCHASE_RECONCILE_AFTER_MS; --all: any). */
  'purchase:reconcile': async (app, argv) => {
    const v = parseCommandArgs(argv, { all: { type: 'boolean' } });
    return app.get(PurchaseReconciler).run(v.all === true ? 0 : undefined);
  },

  'renewals:run': async (app) => {
    const report = await app.get(RenewalsService).runDue();
    await app.get(InvoiceMailer).drain();
    return report;
  },
};
