// Verifies a webhook's X-MM-Signature with Node's standard library only (Node 18 or later).
// Copy this file into your receiver. Pass the body's exact bytes, before any JSON parsing.
import { Buffer } from 'node:buffer';
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Seconds a timestamp may be from your clock: older requests are stale or replayed. */
export const TOLERANCE_SECONDS = 300;

/**
 * true when `signature` (the X-MM-Signature header) is the lowercase hex HMAC-SHA256, keyed with your
 * signing secret, of `timestamp` (X-MM-Timestamp, Unix seconds), a ".", and the raw body; and the
 * timestamp is within TOLERANCE_SECONDS of `nowSeconds`.
 */
export function verifyWebhookSignature(secret, timestamp, rawBody, signature, nowSeconds = Date.now() / 1000) {
  if (typeof timestamp !== 'string' || typeof signature !== 'string') return false;
  if (!/^\d{1,12}$/.test(timestamp) || !/^[0-9a-f]{64}$/.test(signature)) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

// As a command (how the repository's tests run it): WEBHOOK_SECRET=... node verify.mjs TIMESTAMP SIGNATURE < body
// prints "valid" and exits 0, or prints "invalid" and exits 1.
if (import.meta.url === `file://${process.argv[1]}`) {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const ok = verifyWebhookSignature(process.env.WEBHOOK_SECRET ?? '', process.argv[2], Buffer.concat(chunks), process.argv[3]);
  process.stdout.write(ok ? 'valid\n' : 'invalid\n');
  process.exitCode = ok ? 0 : 1;
}
