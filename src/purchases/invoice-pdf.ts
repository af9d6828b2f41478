import PDFDocument from 'pdfkit';
import { dollars } from './pricing';

export interface InvoiceLine {
  description: string;
  quantity: number;
  /** Unit price ex GST, as printed (credits cost fractions of a cent: `0.035`). */
  unitPrice: string;
  amountExGstCents: number;
}

/** Everything an Australian tax invoice must show (seller and ABN, date, number, buyer, items, GST, total). */
export interface InvoiceData {
  sellerName: string;
  sellerAbn: string;
  invoiceNumber: string;
  /** YYYY-MM-DD */
  date: string;
  buyerName: string;
  buyerEmail: string;
  apiKeyLabel: string;
  apiUsername: string;
  /** How a purchase made without an API key was made (the Billing page, auto-recharge); null: with the key named above. */
  boughtBy: string | null;
  lines: InvoiceLine[];
  exGstCents: number;
  gstCents: number;
  incGstCents: number;
  cardLast4: string;
  /** A payment held for review: delivered only once released. */
  held: boolean;
}

/** `51 824 753 556`. */
export function formatAbn(abn: string): string {
  return abn.replace(/^(\d{2})(\d{3})(\d{3})(\d{3})$/, '$1 $2 $3 $4');
}

/** The tax invoice as a one-page PDF (pdfkit, standard fonts: no files to ship). */
export function renderInvoicePdf(data: InvoiceData): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'A4',
      margin: 50,
      info: { Title: `Tax invoice ${data.invoiceNumber}`, Author: data.sellerName, CreationDate: new Date(`${data.date}T00:00:00Z`) },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);

    doc.font('Helvetica-Bold').fontSize(22).text('Tax invoice');
    doc.moveDown(0.5).font('Helvetica').fontSize(11);
    doc.text(data.sellerName).text(`ABN ${formatAbn(data.sellerAbn)}`);
    doc.moveDown();
    doc.text(`Invoice number: ${data.invoiceNumber}`).text(`Date: ${data.date}`);
    doc.moveDown();
    doc.font('Helvetica-Bold').text('Bill to');
    doc.font('Helvetica').text(data.buyerName);
    if (data.buyerEmail) doc.text(data.buyerEmail);
    doc.text(data.boughtBy ?? `API key: ${data.apiKeyLabel} (${data.apiUsername})`);
    doc.moveDown();

    const cols = [50, 300, 370, 460];
    const header = doc.y;
    doc.font('Helvetica-Bold').text('Item', cols[0], header).text('Quantity', cols[1], header).text('Unit price', cols[2], header).text('Amount ex GST', cols[3], header);
    doc.font('Helvetica');
    for (const line of data.lines) {
      const y = doc.y + 6;
      doc.text(line.description, cols[0], y, { width: 240 });
      const after = doc.y;
      doc
        .text(String(line.quantity), cols[1], y)
        .text(`$${line.unitPrice}`, cols[2], y)
        .text(`$${dollars(line.amountExGstCents)}`, cols[3], y);
      doc.y = Math.max(after, doc.y);
    }
    doc.moveDown();
    const totals: Array<[string, number]> = [
      ['Total ex GST', data.exGstCents],
      ['GST (10%)', data.gstCents],
      ['Total inc GST', data.incGstCents],
    ];
    for (const [label, cents] of totals) {
      const y = doc.y + 4;
      doc
        .font(label === 'Total inc GST' ? 'Helvetica-Bold' : 'Helvetica')
        .text(label, cols[2], y)
        .text(`$${dollars(cents)}`, cols[3], y);
    }
    doc.font('Helvetica').moveDown(2);
    doc.text(`Paid by card ending in ${data.cardLast4}. Amounts in Australian dollars.`, cols[0]);
    if (data.held) doc.moveDown().text('This payment is held for review by our payment provider: what it buys is delivered once the review releases it.', cols[0]);
    doc.end();
  });
}
