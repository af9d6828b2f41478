import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every level, so re-serialising the same body is the same body. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.keys(value as Record<string, unknown>)
    .sort()
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(',')}}`;
}

export function fingerprintOf(body: unknown): Buffer {
  return createHash('sha256')
    .update(canonicalJson(body ?? {}))
    .digest();
}

/**
 * The fingerprint a stored response is replayed against: the operation and its body, so one key reused
 * with the same body on another operation is a 422, never a replay of the other operation's answer.
 */
export function requestFingerprint(operation: string, body: unknown): Buffer {
  return fingerprintOf({ operation, body: body ?? {} });
}
