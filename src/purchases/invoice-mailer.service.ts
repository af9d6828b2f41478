import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '../common/time/clock';
import { MailService } from '../mail/mail.service';
import { MailTemplates } from '../mail/mail-templates';
import { renderInvoicePdf } from './invoice-pdf';
import { dollars } from './pricing';
import { InvoicesService } from './invoices.service';
import { PurchasesRepository } from './purchases.repository';

/**
 * Emails each charge's tax invoice once. The purchase row records that it went (claimed before sending,
 * given back when the mail fails), so a crash after the commit is caught up by the reconciler and two
 * processes never both send it.
 */
@Injectable()
export class InvoiceMailer implements OnApplicationShutdown {
  private readonly logger = new Logger(InvoiceMailer.name);
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly repo: PurchasesRepository,
    private readonly invoices: InvoicesService,
    private readonly mail: MailService,
    private readonly clock: Clock,
  ) {}

  /** Sends after the caller's answer, never delaying or failing it. */
  sendSoon(purchaseId: number): void {
    const job = this.send(purchaseId).catch((err: Error) => this.logger.warn({ msg: 'invoice mail failed', purchase_id: purchaseId, err: err.message }));
    this.pending.add(job);
    void job.finally(() => this.pending.delete(job));
  }

  /** Waits for mails in flight (shutdown, tests). */
  async drain(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.drain();
  }

  async send(purchaseId: number): Promise<boolean> {
    if (!(await this.repo.claimInvoiceMail(purchaseId, this.clock.now()))) return false;
    try {
      const purchase = (await this.repo.byId(purchaseId))!;
      const to = await this.invoices.recipient(purchase);
      if (!to) {
        this.logger.warn({ msg: 'invoice not emailed: no billing address and no owner', purchase_id: purchaseId });
        return false;
      }
      const data = await this.invoices.data(purchase);
      const pdf = await renderInvoicePdf(data);
      const sent = await this.mail.send({
        ...MailTemplates.taxInvoice(to, {
          invoiceNumber: data.invoiceNumber,
          accountName: data.buyerName,
          keyLabel: data.apiKeyLabel,
          username: data.apiUsername,
          boughtBy: data.boughtBy,
          item: data.lines[0].description,
          total: dollars(data.incGstCents),
          gst: dollars(data.gstCents),
          held: data.held,
        }),
        attachments: [{ filename: `${data.invoiceNumber}.pdf`, content: pdf, contentType: 'application/pdf' }],
      });
      if (!sent) await this.repo.unclaimInvoiceMail(purchaseId);
      return sent;
    } catch (err) {
      await this.repo.unclaimInvoiceMail(purchaseId);
      throw err;
    }
  }
}
