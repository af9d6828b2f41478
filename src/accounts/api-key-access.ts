import { STORED_API_SCOPES } from '../common/auth/api-scopes';
import { failure } from '../common/errors/error-catalogue';
import { formatCidr, parseCidr } from '../common/net/cidr';

/** What a key may do besides purchases: its stored scopes, allow-list and daily cap. */
export interface ApiKeyAccess {
  scopes: string[];
  allowedCidrs: string[];
  dailyMessageCap: number | null;
}

/** What a person typed: the ticked scopes, the allowed addresses as one text, the cap as text. */
export interface KeyAccessInput {
  scopes: readonly string[];
  cidrs: string;
  cap: string;
}

/** Addresses or blocks one key may list: enough for a few offices and a cloud range, short enough to read. */
export const MAX_ALLOWED_CIDRS = 20;
/** The highest daily message cap: ten of the largest batches (10000 messages each). */
export const MAX_DAILY_MESSAGE_CAP = 100_000;

/** A new key's access: every stored scope, any address, no cap (purchases stays off: its own switch). */
export const DEFAULT_KEY_ACCESS: ApiKeyAccess = { scopes: [...STORED_API_SCOPES], allowedCidrs: [], dailyMessageCap: null };

/**
 * Checks and normalises what a person asked a key to allow: known scopes other than purchases (at
 * least one), addresses or CIDR blocks (one per line, or separated by commas or spaces; stored with
 * host bits cleared and duplicates dropped), and a cap ('' for none). Throws the catalogue's texts.
 */
export function normaliseKeyAccess(input: KeyAccessInput): ApiKeyAccess {
  const scopes = STORED_API_SCOPES.filter((s) => input.scopes.includes(s));
  // purchases is the purchases switch (its own form and rules); an unknown name is no scope and is ignored.
  if (scopes.length === 0) throw failure('apiKeyScopesEmpty');
  const allowedCidrs: string[] = [];
  for (const entry of input.cidrs.split(/[\s,]+/).filter(Boolean)) {
    const block = parseCidr(entry);
    if (!block) throw failure('apiKeyCidrInvalid', entry.length > 60 ? `${entry.slice(0, 60)}…` : entry);
    const text = formatCidr(block);
    if (!allowedCidrs.includes(text)) allowedCidrs.push(text);
  }
  if (allowedCidrs.length > MAX_ALLOWED_CIDRS) throw failure('apiKeyCidrsTooMany', MAX_ALLOWED_CIDRS);
  const capText = input.cap.trim().replace(/,/g, '');
  let dailyMessageCap: number | null = null;
  if (capText !== '') {
    if (!/^\d{1,7}$/.test(capText) || Number(capText) < 1 || Number(capText) > MAX_DAILY_MESSAGE_CAP) throw failure('apiKeyCapInvalid', MAX_DAILY_MESSAGE_CAP);
    dailyMessageCap = Number(capText);
  }
  return { scopes, allowedCidrs, dailyMessageCap };
}
