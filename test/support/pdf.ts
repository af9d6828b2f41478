import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const INVOICE_ARTIFACTS = path.resolve(__dirname, '../../test-artifacts/invoices');

/** Keeps the PDF under test-artifacts/invoices/ and answers its text as poppler's pdftotext reads it (layout kept). */
export function pdfText(name: string, pdf: Buffer): string {
  mkdirSync(INVOICE_ARTIFACTS, { recursive: true });
  const file = path.join(INVOICE_ARTIFACTS, `${name}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

/** Renders page 1 to a PNG next to the PDF (pdftoppm) and answers the PNG's bytes. */
export function renderFirstPage(name: string): Buffer {
  const file = path.join(INVOICE_ARTIFACTS, `${name}.pdf`);
  execFileSync('pdftoppm', ['-png', '-r', '100', '-f', '1', '-l', '1', '-singlefile', file, path.join(INVOICE_ARTIFACTS, name)]);
  return readFileSync(path.join(INVOICE_ARTIFACTS, `${name}.png`));
}
