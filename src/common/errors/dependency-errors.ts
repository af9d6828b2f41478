/**
 * Recognises errors that mean PostgreSQL or Redis is out of reach (as opposed to a bug or a bad query),
 * so they are answered 503 with Retry-After instead of 500.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN']);
// SQLSTATE classes 08 (connection exception) and 57P (operator intervention: shutdown, cannot connect now);
// 25006 (read-only transaction): a session on a server that has just become a standby, during a failover.
const PG_UNAVAILABLE = /^(08|57P0[1-3]|53300|25006)/;
// TypeORM releases a transaction's query runner when its connection emits an error; the transaction's next
// statement then fails with QueryRunnerAlreadyReleasedError instead of the connection error itself.
const PG_MESSAGES = [
  /Connection terminated/i,
  /Query runner already released/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error/i,
  /Connection is not established/i,
];
const REDIS_MESSAGES = [/Stream isn't writeable/i, /Connection is closed/i, /MaxRetriesPerRequest/i, /Reached the max retries per request/i, /Command timed out/i];

export function classifyDependencyFailure(error: unknown): 'postgres' | 'redis' | null {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const e = current as { code?: unknown; message?: unknown; name?: unknown; driverError?: unknown; cause?: unknown };
    const message = typeof e.message === 'string' ? e.message : '';
    const code = typeof e.code === 'string' ? e.code : '';
    if (e.name === 'MaxRetriesPerRequestError' || REDIS_MESSAGES.some((r) => r.test(message))) return 'redis';
    if (PG_UNAVAILABLE.test(code) || PG_MESSAGES.some((r) => r.test(message))) return 'postgres';
    if (NETWORK_CODES.has(code)) return /redis|6379/i.test(message) ? 'redis' : 'postgres';
    current = e.driverError ?? e.cause;
  }
  return null;
}

/** SQLSTATE 22021 (NUL, invalid UTF-8) and 22P05 (untranslatable): PostgreSQL refused text the request carried. */
const PG_UNSTORABLE = new Set(['22021', '22P05']);

export function isUnstorableTextError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const e = current as { code?: unknown; driverError?: unknown; cause?: unknown };
    if (typeof e.code === 'string' && PG_UNSTORABLE.has(e.code)) return true;
    current = e.driverError ?? e.cause;
  }
  return false;
}
