export type SenderIdCheck = { ok: true; value: string; brandKey: string } | { ok: false; problem: 'length' | 'characters' | 'letter' };

/**
 * An alphanumeric Sender ID as ACMA registers it: 3-11 characters of letters, digits and spaces, at
 * least one letter (leading and trailing spaces are dropped). Its brand key ignores case and spaces, so
 * `My Brand` and `MYBRAND` are one brand, which belongs to one business.
 */
export function checkSenderId(input: string): SenderIdCheck {
  const value = input.trim();
  if (value.length < 3 || value.length > 11) return { ok: false, problem: 'length' };
  if (!/^[A-Za-z0-9 ]+$/.test(value)) return { ok: false, problem: 'characters' };
  if (!/[A-Za-z]/.test(value)) return { ok: false, problem: 'letter' };
  return { ok: true, value, brandKey: brandKeyOf(value) };
}

export function brandKeyOf(senderId: string): string {
  return senderId.toUpperCase().replace(/ /g, '');
}
