/**
 * Credits are held as integer hundredths. These convert at the edges: API numbers (JSON numbers with at
 * most two decimals), the two-decimal strings of message lookups, and operator input.
 */
export function hundredthsToNumber(hundredths: number): number {
  return hundredths / 100;
}

export function hundredthsToFixed(hundredths: number): string {
  const sign = hundredths < 0 ? '-' : '';
  const abs = Math.abs(hundredths);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Parses `12`, `12.5`, `12.50` into hundredths; null for anything else (negative, more decimals, text). */
export function parseCreditsToHundredths(text: string): number | null {
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}
