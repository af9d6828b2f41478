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
  /** Contact text fields the file supplies; only these are written to existing contacts. */
  columns: ContactTextField[];
  rows: CsvContact[];
  invalid: Array<{ line: number; reason: string }>;
  duplicates: Array<{ line: number; number: string; first_line: number }>;
}

/** The fields a CSV column can fill: the number and the contact text fields. */
export const IMPORT_FIELDS = ['number', ...CONTACT_TEXT_FIELDS] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/** Which CSV column (by its header) fills which contact field; `number` is required. */
export type ColumnMapping = Partial<Record<ImportField, string>>;

export class CsvFormatError extends Error {}

const KNOWN = new Set<string>(IMPORT_FIELDS);

type CsvRecord = { record: string[]; info: { lines: number } };

function readRecords(text: string, toLine?: number): CsvRecord[] {
  try {
    return parse(text, { bom: true, info: true, relax_column_count: true, skip_empty_lines: true, trim: false, ...(toLine ? { to_line: toLine } : {}) }) as CsvRecord[];
  } catch (err) {
    throw new CsvFormatError(`CSV could not be read: ${(err as Error).message}`);
  }
}

const headerKey = (h: string) => h.trim().toLowerCase();

/**
 * Checks a mapping sent by a client (any JSON) against the CSV's header row, and answers it typed.
 * Header names match trimmed and case-insensitively; columns no field names are ignored.
 */
export function checkMapping(raw: unknown, header: string[]): ColumnMapping {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new CsvFormatError('mapping must be an object');
  const mapping: ColumnMapping = {};
  const headers = new Set(header.map(headerKey));
  for (const [field, column] of Object.entries(raw as Record<string, unknown>)) {
    if (!KNOWN.has(field)) throw new CsvFormatError(`mapping names an unknown contact field: ${field}; fields: ${IMPORT_FIELDS.join(', ')}`);
    if (typeof column !== 'string' || column.trim() === '') throw new CsvFormatError(`mapping.${field} must be the header of a CSV column`);
    if (!headers.has(headerKey(column))) throw new CsvFormatError(`mapping.${field} names a column the CSV does not have: ${column}`);
    mapping[field as ImportField] = column;
  }
  if (mapping.number === undefined) throw new CsvFormatError('mapping.number is required');
  return mapping;
}

/** The mapping a header row implies when no mapping is given: its columns must be contact field names. */
export function mappingFromHeader(header: string[]): ColumnMapping {
  const names = header.map(headerKey);
  const unknown = names.filter((h) => !KNOWN.has(h));
  if (unknown.length) throw new CsvFormatError(`Unknown column(s) ${unknown.join(', ')}; allowed: ${IMPORT_FIELDS.join(', ')}`);
  if (!names.includes('number')) throw new CsvFormatError('The header row must name a number column');
  return Object.fromEntries(names.map((n) => [n, n])) as ColumnMapping;
}

/** The header row and up to `rows` data records after it (the page's preview and the API's checks). */
export function readCsvHead(text: string, rows: number): { header: string[]; records: string[][] } {
  const records = readRecords(text, rows + 1);
  if (records.length === 0) throw new CsvFormatError('CSV is empty: a header row naming the contact fields is required');
  return { header: records[0].record.map((h) => h.trim()), records: records.slice(1).map((r) => r.record) };
}

/**
 * Reads a contacts CSV: its header row names the columns, and the mapping (or, without one, the header
 * names themselves) says which fill which contact field. Rows are normalised and checked here, so the
 * database sees only clean, unique numbers; bad rows are reported with their line numbers, and a number
 * repeated in the file keeps its first row.
 */
export function parseContactsCsv(text: string, givenMapping?: ColumnMapping): ParsedContactsCsv {
  const records = readRecords(text);
  if (records.length === 0) throw new CsvFormatError('CSV is empty: a header row naming the contact fields is required');
  const header = records[0].record.map(headerKey);
  const mapping = givenMapping ? checkMapping(givenMapping, header) : mappingFromHeader(header);
  const numberAt = header.indexOf(headerKey(mapping.number!));
  const columns = CONTACT_TEXT_FIELDS.filter((f) => mapping[f] !== undefined);
  const positions = columns.map((f) => [f, header.indexOf(headerKey(mapping[f]!))] as const);

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
