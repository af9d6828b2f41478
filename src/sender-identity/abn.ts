/** The ATO's weights for the 11 digits of an ABN. */
const WEIGHTS = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19] as const;

/**
 * The ATO's ABN check: subtract 1 from the first digit, multiply each digit by its weight, and the sum
 * must divide by 89. `digits` must be exactly 11 digits. The first digit is never 0 (an ABN's first two
 * digits are its check digits, 10-99).
 */
export function abnChecksumValid(digits: string): boolean {
  if (!/^[0-9]{11}$/.test(digits) || digits[0] === '0') return false;
  let sum = 0;
  for (let i = 0; i < 11; i++) sum += (Number(digits[i]) - (i === 0 ? 1 : 0)) * WEIGHTS[i];
  return sum % 89 === 0;
}

export type AbnCheck = { ok: true; abn: string } | { ok: false; problem: 'not_digits' | 'length' | 'checksum' };

/** An ABN as people write it (`51 824 753 556`): spaces are ignored, anything else must be one of 11 digits with a valid checksum. */
export function checkAbn(input: string): AbnCheck {
  const abn = input.replace(/\s+/g, '');
  if (!/^[0-9]*$/.test(abn)) return { ok: false, problem: 'not_digits' };
  if (abn.length !== 11) return { ok: false, problem: 'length' };
  return abnChecksumValid(abn) ? { ok: true, abn } : { ok: false, problem: 'checksum' };
}
