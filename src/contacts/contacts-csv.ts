import { parse } from 'csv-parse/sync';
import { ErrorText } from '../common/errors/error-catalogue';
import { normaliseAuMobile } from '../common/phone';
import { isStorableText } from '../common/validation/storable-text';
import { CONTACT_FIELD_MAX_LENGTH, CONTACT_TEXT_FIELDS, ContactTextField } from './contact-fields';

export interface CsvContact {
  line: number;
  number: string;
  fields: Record<ContactTextField, string>;
}

export interface ParsedContactsCsv {
  /** Contact text fields the header names; only these are written to existing contacts. */
  columns: ContactTextField[];
  rows: CsvContact[];
  invalid: Array<{ line: number; reason: string }>;
  duplicates: Array<{ line: number; number: string; first_line: number }>;
}

export class CsvFormatError extends Error {}

const KNOWN = new Set<string>(['number', ...CONTACT_TEXT_FIELDS]);

/**
 * Reads a contacts CSV whose header row names contact fields (`number` required). Rows are normalised
 * and checked here, so the database sees only clean, unique numbers; bad rows are reported with their
 * line numbers, and a number repeated in the file keeps its first row.
 */
export function parseContactsCsv(text: string): ParsedContactsCsv {
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parse(text, { bom: true, info: true, relax_column_count: true, skip_empty_lines: true, trim: false }) as typeof records;
  } catch (err) {
    throw new CsvFormatError(`CSV could not be read: ${(err as Error).message}`);
  }
  if (records.length === 0) throw new CsvFormatError('CSV is empty: a header row naming the contact fields is required');
  const header = records[0].record.map((h) => h.trim().toLowerCase());
  const unknown = header.filter((h) => !KNOWN.has(h));
  if (unknown.length) throw new CsvFormatError(`Unknown column(s) ${unknown.join(', ')}; allowed: number, ${CONTACT_TEXT_FIELDS.join(', ')}`);
  const numberAt = header.indexOf('number');
  if (numberAt < 0) throw new CsvFormatError('The header row must name a number column');
  const columns = CONTACT_TEXT_FIELDS.filter((f) => header.includes(f));
  const positions = columns.map((f) => [f, header.indexOf(f)] as const);

  const result: ParsedContactsCsv = { columns, rows: [], invalid: [], duplicates: [] };
  const seen = new Map<string, number>();
  for (let r = 1; r < records.length; r++) {
    const { record, info } = records[r];
    const line = info.lines;
    const raw = (record[numberAt] ?? '').trim();
    if (raw === '') {
      result.invalid.push({ line, reason: 'number is required' });
      continue;
    }
    const number = normaliseAuMobile(raw);
    if (!number) {
      result.invalid.push({ line, reason: 'Invalid phone number format' });
      continue;
    }
    const fields = Object.fromEntries(CONTACT_TEXT_FIELDS.map((f) => [f, ''])) as Record<ContactTextField, string>;
    let problem: string | undefined;
    for (const [field, at] of positions) {
      const value = record[at] ?? '';
      if (!isStorableText(value)) problem ??= ErrorText.unstorableText(field);
      else if (value.length > CONTACT_FIELD_MAX_LENGTH) problem ??= `${field} must be at most ${CONTACT_FIELD_MAX_LENGTH} characters`;
      fields[field] = value;
    }
    if (problem) {
      result.invalid.push({ line, reason: problem });
      continue;
    }
    const first = seen.get(number);
    if (first !== undefined) {
      result.duplicates.push({ line, number, first_line: first });
      continue;
    }
    seen.set(number, line);
    result.rows.push({ line, number, fields });
  }
  return result;
}
