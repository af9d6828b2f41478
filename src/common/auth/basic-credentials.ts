export interface BasicCredentials {
  username: string;
  password: string;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * Parses an Authorization header value. Null for a missing header, another scheme, or a value that
 * does not decode to a non-empty `username:password` (supplement: all answered `Authentication required`).
 */
export function parseBasicAuthorization(header: string | undefined): BasicCredentials | null {
  if (!header) return null;
  const match = /^Basic +(\S+)\s*$/i.exec(header);
  if (!match || !BASE64.test(match[1]) || match[1].length % 4 !== 0) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0 || colon === decoded.length - 1) return null;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** `api_username` and `api_password` from a parsed query string; null unless both are single non-empty values. */
export function parseQueryCredentials(query: unknown): BasicCredentials | null {
  if (query === null || typeof query !== 'object') return null;
  const { api_username: username, api_password: password } = query as Record<string, unknown>;
  if (typeof username !== 'string' || typeof password !== 'string' || username === '' || password === '') return null;
  return { username, password };
}
