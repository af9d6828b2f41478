import { parseCreditsToHundredths } from '../billing/money';
import { UsageText } from '../common/errors/error-catalogue';
import { normaliseEmail } from '../users/email';
import { UsageError } from './cli-args';

/** Credits in hundredths from a flag's text (`150.25`); absent is 0. */
export function creditsFlag(text: string | undefined, flag: string, allowZero = true): number {
  if (text === undefined) return 0;
  const hundredths = parseCreditsToHundredths(text);
  if (hundredths === null || (!allowZero && hundredths === 0)) throw new UsageError(UsageText.flagCredits(flag, allowZero));
  return hundredths;
}

export function oneOfFlag<T extends string>(text: string | undefined, flag: string, values: readonly T[]): T | undefined {
  if (text === undefined) return undefined;
  if (!(values as readonly string[]).includes(text)) throw new UsageError(UsageText.flagOneOf(flag, values));
  return text as T;
}

export function emailFlag(text: string, flag: string): string {
  const value = normaliseEmail(text);
  if (!value) throw new UsageError(UsageText.flagEmail(flag));
  return value;
}

/** A count flag (`--limit 50`) between 1 and max; absent is the default. */
export function countFlag(text: string | undefined, flag: string, fallback: number, max: number): number {
  if (text === undefined) return fallback;
  if (!/^\d{1,9}$/.test(text.trim()) || Number(text) < 1 || Number(text) > max) throw new UsageError(UsageText.flagBetween(flag, 1, max));
  return Number(text);
}
