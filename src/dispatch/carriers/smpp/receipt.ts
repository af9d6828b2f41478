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

/**
 * Fields of a receipt text; a field that is absent is null. Dates are read as YYMMDDhhmm[ss] in the
 * SMSC's clock, which is `utcOffsetMinutes` ahead of UTC (0 when the SMSC reports UTC).
 */
export function parseReceiptText(text: string, utcOffsetMinutes = 0): ReceiptText {
  const textMatch = /(?:^|\s)text:/i.exec(text);
  const head = textMatch ? text.slice(0, textMatch.index) : text;
  const field = (pattern: RegExp): string | null => pattern.exec(head)?.[1] ?? null;
  const date = (pattern: RegExp): Date | null => {
    const value = field(pattern);
    return value === null ? null : parseReceiptDate(value, utcOffsetMinutes);
  };
  return {
    id: field(/(?:^|\s)id:(\S+)/i),
    sub: field(/(?:^|\s)sub:(\S+)/i),
    dlvrd: field(/(?:^|\s)dlvrd:(\S+)/i),
    submitDate: date(/(?:^|\s)submit[ _]date:(\d+)/i),
    doneDate: date(/(?:^|\s)done[ _]date:(\d+)/i),
    stat: field(/(?:^|\s)stat:(\S+)/i)?.toUpperCase() ?? null,
    err: field(/(?:^|\s)err:(\S+)/i),
    text: textMatch ? text.slice(textMatch.index + textMatch[0].length) : null,
  };
}

/** YYMMDDhhmm or YYMMDDhhmmss (years 2000-2099) to a Date, or null when it is not a valid date. */
export function parseReceiptDate(value: string, utcOffsetMinutes = 0): Date | null {
  const match = /^(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)?$/.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1, 6).map(Number);
  const second = match[6] === undefined ? 0 : Number(match[6]);
  const utc = Date.UTC(2000 + year, month - 1, day, hour, minute, second);
  const date = new Date(utc - utcOffsetMinutes * 60_000);
  // Date.UTC rolls over out-of-range fields (month 13, minute 61): reject instead of guessing.
  const check = new Date(utc);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || check.getUTCHours() !== hour || check.getUTCMinutes() !== minute) {
    return null;
  }
  return date;
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
