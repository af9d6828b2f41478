/** Characters that make a spreadsheet read a cell as a formula (CSV injection): such text cells get a leading apostrophe. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field (RFC 4180): quoted when it holds a comma, quote or line break, quotes doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Text a person or an API client wrote: kept as written, but never run as a formula by a spreadsheet. */
export function csvText(value: string | null): string {
  if (!value) return '';
  return csvField(FORMULA_START.test(value) ? `'${value}` : value);
}
