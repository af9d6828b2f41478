import { parse } from 'csv-parse/sync';
import { normaliseAuMobile } from '../common/phone';

export interface InventoryRow {
  line: number;
  number: string;
  annualPriceCents: number;
}

export interface ParsedNumbersCsv {
  rows: InventoryRow[];
  invalid: Array<{ line: number; reason: string }>;
  /** Rows repeating a number already earlier in the file (the first is kept). */
  repeated: number;
}

export type NumbersCsvResult = { ok: true; parsed: ParsedNumbersCsv } | { ok: false; reason: string };

/** At most A$100,000.00 a year for one number: anything more is a typo. */
const MAX_PRICE_CENTS = 10_000_000;

/** `120`, `120.5`, `$1,200.00` → cents; null for anything else. */
export function parsePriceToCents(text: string): number | null {
  const match = /^\$?(\d{1,3}(?:,\d{3})+|\d{1,9})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  const cents = Number(match[1].replace(/,/g, '')) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return cents <= MAX_PRICE_CENTS ? cents : null;
}

/**
 * Reads the inventory CSV: a header row naming `number` and `annual_price_ex_gst` (other columns are
 * ignored), then one number per row. Numbers are normalised like recipients (Australian mobiles only);
 * prices are dollars ex GST. Bad rows are reported with their line numbers.
 */
export function parseNumbersCsv(text: string): NumbersCsvResult {
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parse(text, { bom: true, info: true, relax_column_count: true, skip_empty_lines: true, trim: true }) as typeof records;
  } catch (err) {
    return { ok: false, reason: `CSV could not be read: ${(err as Error).message}` };
  }
  if (records.length === 0) return { ok: false, reason: 'CSV is empty: a header row naming number and annual_price_ex_gst is required' };
  const header = records[0].record.map((h) => h.toLowerCase());
  const numberAt = header.indexOf('number');
  const priceAt = header.indexOf('annual_price_ex_gst');
  if (numberAt < 0 || priceAt < 0) return { ok: false, reason: 'The header row must name the columns number and annual_price_ex_gst' };

  const parsed: ParsedNumbersCsv = { rows: [], invalid: [], repeated: 0 };
  const seen = new Set<string>();
  for (const { record, info } of records.slice(1)) {
    const line = info.lines;
    const number = normaliseAuMobile(record[numberAt] ?? '');
    if (!number) {
      parsed.invalid.push({ line, reason: 'Invalid phone number format' });
      continue;
    }
    const annualPriceCents = parsePriceToCents(record[priceAt] ?? '');
    if (annualPriceCents === null) {
      parsed.invalid.push({ line, reason: 'annual_price_ex_gst must be an amount in dollars, such as 120 or 99.50, up to 100000' });
      continue;
    }
    if (seen.has(number)) {
      parsed.repeated++;
      continue;
    }
    seen.add(number);
    parsed.rows.push({ line, number, annualPriceCents });
  }
  return { ok: true, parsed };
}
