import { localDayOf } from '../common/time/local-time';
import { Injectable } from '@nestjs/common';
import { boughtBy } from './request-keys';
import { AccountsService } from '../accounts/accounts.service';
import { failure } from '../common/errors/error-catalogue';
import { AppConfig } from '../config/app-config';
import { UsersService } from '../users/users.service';
import { InvoiceData, renderInvoicePdf } from './invoice-pdf';
import { creditUnitPrice } from './pricing';
import type { Purchase } from './purchase.entity';
import { PurchasesRepository } from './purchases.repository';

const INVOICES_LISTED = 100;

/** Tax invoices: one per charge, built from the purchase (so a download is the same invoice that was emailed). */
@Injectable()
export class InvoicesService {
  constructor(
    private readonly repo: PurchasesRepository,
    private readonly accounts: AccountsService,
    private readonly users: UsersService,
    private readonly config: AppConfig,
  ) {}

  list(accountId: number): Promise<Purchase[]> {
    return this.repo.invoices(accountId, INVOICES_LISTED);
  }

  /** The invoice PDF of one of the account's charges. */
  async pdf(accountId: number, invoiceNumber: string): Promise<{ filename: string; pdf: Buffer }> {
    const purchase = /^INV-\d{8}$/.test(invoiceNumber) ? await this.repo.byInvoiceNumber(accountId, invoiceNumber) : null;
    if (!purchase) throw failure('invoiceNotFound');
    return { filename: `${invoiceNumber}.pdf`, pdf: await renderInvoicePdf(await this.data(purchase)) };
  }

  /**
   * Where the invoice goes (interface: the billing notification address; the owner when none is set or
   * the payment is held for review). Null when the account has neither.
   */
  async recipient(purchase: Purchase): Promise<string | null> {
    const account = await this.accounts.get(purchase.accountId);
    if (account.billingEmail && purchase.state !== 'held') return account.billingEmail;
    return (await this.users.ownerOf(purchase.accountId))?.email ?? null;
  }

  async data(purchase: Purchase): Promise<InvoiceData> {
    if (!purchase.invoiceNumber || !purchase.chargedAt) throw new Error(`purchase ${purchase.id} has no invoice`);
    const account = await this.accounts.get(purchase.accountId);
    return {
      sellerName: this.config.sellerName,
      sellerAbn: this.config.sellerAbn,
      invoiceNumber: purchase.invoiceNumber,
      // The buyer's calendar day (the account's zone), as every page and export shows dates.
      date: localDayOf(purchase.chargedAt, account.timeZone),
      buyerName: account.name,
      buyerEmail: account.billingEmail ?? '',
      apiKeyLabel: purchase.apiKeyLabel,
      apiUsername: purchase.apiUsername,
      boughtBy: boughtBy(purchase),
      lines: [lineOf(purchase)],
      exGstCents: purchase.amountExGstCents,
      gstCents: purchase.gstCents,
      incGstCents: purchase.amountIncGstCents,
      cardLast4: purchase.cardLast4,
      held: purchase.state === 'held',
    };
  }
}

function lineOf(p: Purchase) {
  if (p.kind === 'credits') {
    const tenths = creditUnitPrice(p.credits!);
    return { description: 'SMS credits', quantity: p.credits!, unitPrice: (tenths / 1000).toFixed(3), amountExGstCents: p.amountExGstCents };
  }
  const what = p.kind === 'number' ? 'Dedicated number' : 'Dedicated number renewal';
  return { description: `${what} ${p.number}, 12 months`, quantity: 1, unitPrice: (p.amountExGstCents / 100).toFixed(2), amountExGstCents: p.amountExGstCents };
}
