import sjson from 'secure-json-parse';
import { failure } from '../errors/error-catalogue';

/**
 * Parses every request body as JSON (the interface speaks only JSON). An empty body is no body, so a
 * bodiless GET or DELETE carrying `Content-Type: application/json` works as real clients expect.
 * `__proto__`/`constructor.prototype` keys are dropped rather than trusted.
 */
export function parseJsonBody(text: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = sjson.parse(text, undefined, { protoAction: 'remove', constructorAction: 'remove' });
  } catch {
    throw failure('invalidJson');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw failure('bodyNotObject');
  }
  return value as Record<string, unknown>;
}
