import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';

/**
 * What an API key may do. Every authenticated route names exactly one scope (`@RequiresScope`, on the
 * controller or the handler; a unit test walks every controller so a new route cannot go without one),
 * and a key answers 403 `This API key does not have the <scope> scope` outside its scopes. `purchases`
 * is the key's purchases switch under another name: its owner/billing rules are kept, and a purchase
 * without it still answers the switch's own text (`Purchases are not enabled for this API key`).
 */
export const API_SCOPES = [
  { scope: 'messages:send', label: 'Send messages', covers: 'send, list-send, the simple send, cancel scheduled messages, simulated replies' },
  { scope: 'messages:read', label: 'Read messages', covers: 'message lookup and history, replies, link clicks' },
  { scope: 'contacts', label: 'Contacts and lists', covers: 'contacts, lists and their members, imports, opt-outs, consent records' },
  { scope: 'senders', label: 'Senders', covers: 'senders, own-mobile confirmation, Sender ID registration, dedicated numbers (listing and the free claim)' },
  { scope: 'webhooks', label: 'Webhooks', covers: 'webhook URLs, the signing secret, delivery log, test events and redelivery' },
  { scope: 'account', label: 'Account and settings', covers: 'the balance, quiet hours, keyword rules' },
  { scope: 'purchases', label: 'Purchases', covers: 'buying credits and dedicated numbers (the purchases switch)' },
] as const;

export type ApiScope = (typeof API_SCOPES)[number]['scope'];

export const ALL_API_SCOPES: readonly ApiScope[] = API_SCOPES.map((s) => s.scope);

/** The scopes held in `api_keys.scopes`; purchases lives in the key's purchases switch (`purchases_enabled`). */
export const STORED_API_SCOPES: readonly ApiScope[] = ALL_API_SCOPES.filter((s) => s !== 'purchases');

export function isApiScope(value: unknown): value is ApiScope {
  return typeof value === 'string' && (ALL_API_SCOPES as readonly string[]).includes(value);
}

export const REQUIRED_SCOPE = 'requiredApiScope';

/** The scope a route needs; documented per operation as `x-required-scope`. */
export const RequiresScope = (scope: ApiScope) => applyDecorators(SetMetadata(REQUIRED_SCOPE, scope), ApiExtension('x-required-scope', scope));
