/**
 * The delivery receipt text of SMPP 3.4 Appendix B, which SMSCs put in the short_message of a receipt:
 *   id:IIIIIIIIII sub:SSS dlvrd:DDD submit date:YYMMDDhhmm done date:YYMMDDhhmm stat:DDDDDDD err:E text:...
 * The appendix is informative, so SMSCs vary: keys in any case, dates with or without seconds, fields
 * missing or reordered. Parsing is field by field and tolerant; `text:` is last and may hold anything,
 * so the other fields are looked for only before it.
 */

export type ReceiptOutcome = 'delivered' | 'failed' | 'intermediate';

export interface ReceiptText {
  id: string | null;
  sub: string | null;
  dlvrd: string | null;
  submitDate: Date | null;
  doneDate: Date | null;
  stat: string | null;
  err: string | null;
  text: string | null;
}

/** Final and intermediate states by their receipt stat word (SMPP 3.4 Appendix B, message states). */
const OUTCOME_BY_STAT: Readonly<Record<string, ReceiptOutcome>> = {
  DELIVRD: 'delivered',
  UNDELIV: 'failed',
  REJECTD: 'failed',
  EXPIRED: 'failed',
  UNKNOWN: 'failed',
  DELETED: 'failed',
  ENROUTE: 'intermediate',
  ACCEPTD: 'intermediate',
};

/** message_state TLV values (SMPP 3.4 §5.2.28) as the stat word they stand for. */
const STAT_BY_MESSAGE_STATE: Readonly<Record<number, string>> = {
  1: 'ENROUTE',
  2: 'DELIVRD',
  3: 'EXPIRED',
  4: 'DELETED',
  5: 'UNDELIV',
  6: 'ACCEPTD',
  7: 'UNKNOWN',
  8: 'REJECTD',
};

/** 'delivered', 'failed', 'intermediate' (ENROUTE, ACCEPTD: a final receipt follows), or null when unknown. */
export function receiptOutcome(stat: string): ReceiptOutcome | null {
  return OUTCOME_BY_STAT[stat.toUpperCase()] ?? null;
}

/** The stat word for a message_state TLV value, or null when the value is not a known state. */
export function statFromMessageState(state: number): string | null {
  return STAT_BY_MESSAGE_STATE[state] ?? null;
}

const TEXT_FIELD = /(?:^|\s)text:/i;

/** The keys before `text:`, lower case, with the field each fills (`submit date` and `submit_date` alike). */
const KEYS: ReadonlyArray<readonly [string, ReceiptKey]> = [
  ['id', 'id'],
  ['sub', 'sub'],
  ['dlvrd', 'dlvrd'],
  ['submit date', 'submitDate'],
  ['submit_date', 'submitDate'],
  ['done date', 'doneDate'],
  ['done_date', 'doneDate'],
  ['stat', 'stat'],
  ['err', 'err'],
];
type ReceiptKey = 'id' | 'sub' | 'dlvrd' | 'submitDate' | 'doneDate' | 'stat' | 'err';

/**
 * Fields of a receipt text; a field that is absent is null. A key counts at the start or after white
 * space, followed by `:` and a value running to the next white space; the first occurrence of a key
 * counts, even when its value is unreadable (a date that does not start with digits reads as null).
 * Dates are read as YYMMDDhhmm[ss] in the SMSC's clock, which is `utcOffsetMinutes` ahead of UTC (0 when
 * the SMSC reports UTC). One pass over the characters: it runs for every receipt.
 */
export function parseReceiptText(text: string, utcOffsetMinutes = 0): ReceiptText {
  const textMatch = TEXT_FIELD.exec(text);
  const headEnd = textMatch ? textMatch.index : text.length;
  const found: Partial<Record<ReceiptKey, string>> = {};
  for (let at = 0; at < headEnd; at++) {
    if (at > 0 && !isSpace(text.charCodeAt(at - 1))) continue;
    for (const [key, field] of KEYS) {
      const valueStart = at + key.length + 1;
      if (valueStart >= headEnd || text.charCodeAt(valueStart - 1) !== 0x3a || !startsWithLower(text, at, key)) continue;
      let valueEnd = valueStart;
      while (valueEnd < headEnd && !isSpace(text.charCodeAt(valueEnd))) valueEnd++;
      if (valueEnd === valueStart) break;
      if (found[field] === undefined) found[field] = text.slice(valueStart, valueEnd);
      at = valueEnd; // the white space after the value starts the next field
      break;
    }
  }
  const date = (value: string | undefined): Date | null => {
    const digits = value === undefined ? '' : leadingDigits(value);
    return digits === '' ? null : parseReceiptDate(digits, utcOffsetMinutes);
  };
  return {
    id: found.id ?? null,
    sub: found.sub ?? null,
    dlvrd: found.dlvrd ?? null,
    submitDate: date(found.submitDate),
    doneDate: date(found.doneDate),
    stat: found.stat?.toUpperCase() ?? null,
    err: found.err ?? null,
    text: textMatch ? text.slice(textMatch.index + textMatch[0].length) : null,
  };
}

/** `text` at `at` starts with `key` (lower-case ASCII letters, space and `_`), letters in any case. */
function startsWithLower(text: string, at: number, key: string): boolean {
  for (let i = 0; i < key.length; i++) {
    const c = text.charCodeAt(at + i);
    const k = key.charCodeAt(i);
    if (c !== k && !(k >= 0x61 && k <= 0x7a && c === k - 0x20)) return false;
  }
  return true;
}

/** White space as regular expressions' \s has it. */
function isSpace(c: number): boolean {
  return (
    c === 0x20 ||
    (c >= 0x09 && c <= 0x0d) ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

function leadingDigits(value: string): string {
  let end = 0;
  while (end < value.length && value.charCodeAt(end) >= 0x30 && value.charCodeAt(end) <= 0x39) end++;
  return value.slice(0, end);
}

/** YYMMDDhhmm or YYMMDDhhmmss (years 2000-2099) to a Date, or null when it is not a valid date. */
export function parseReceiptDate(value: string, utcOffsetMinutes = 0): Date | null {
  if (value.length !== 10 && value.length !== 12) return null;
  const pair = (at: number): number => {
    const tens = value.charCodeAt(at) - 0x30;
    const ones = value.charCodeAt(at + 1) - 0x30;
    return tens >= 0 && tens <= 9 && ones >= 0 && ones <= 9 ? tens * 10 + ones : NaN;
  };
  const [year, month, day, hour, minute] = [pair(0), pair(2), pair(4), pair(6), pair(8)];
  const second = value.length === 12 ? pair(10) : 0;
  const utc = Date.UTC(2000 + year, month - 1, day, hour, minute, second);
  if (Number.isNaN(utc)) return null;
  // Date.UTC rolls over out-of-range fields (month 13, minute 61): reject instead of guessing.
  const check = new Date(utc);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || check.getUTCHours() !== hour || check.getUTCMinutes() !== minute || check.getUTCSeconds() !== second) {
    return null;
  }
  return utcOffsetMinutes === 0 ? check : new Date(utc - utcOffsetMinutes * 60_000);
}

/** A Date as YYMMDDhhmm in UTC shifted by `utcOffsetMinutes` (the receipt's date format). */
export function formatReceiptDate(date: Date, utcOffsetMinutes = 0): string {
  const shifted = new Date(date.getTime() + utcOffsetMinutes * 60_000);
  const two = (n: number): string => String(n).padStart(2, '0');
  return two(shifted.getUTCFullYear() % 100) + two(shifted.getUTCMonth() + 1) + two(shifted.getUTCDate()) + two(shifted.getUTCHours()) + two(shifted.getUTCMinutes());
}

export interface ReceiptTextFields {
  id: string;
  delivered: boolean;
  stat: string;
  err: string;
  submitDate: Date;
  doneDate: Date;
  text: string;
}

/** The standard receipt text, as an SMSC (the simulator) writes it. `text` is cut to its first 20 characters. */
export function formatReceiptText(fields: ReceiptTextFields): string {
  return (
    `id:${fields.id} sub:001 dlvrd:${fields.delivered ? '001' : '000'} ` +
    `submit date:${formatReceiptDate(fields.submitDate)} done date:${formatReceiptDate(fields.doneDate)} ` +
    `stat:${fields.stat} err:${fields.err} text:${fields.text.slice(0, 20)}`
  );
}
