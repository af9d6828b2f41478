import { lookup as dnsLookup, LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { isBlockedAddress } from '../common/net/address-policy';
import { signWebhook } from './signature';

export interface SendResult {
  ok: boolean;
  status: number | null;
  error: string;
  durationMs: number;
}

export const NOT_ALLOWED = 'Webhook URL is not allowed';

/**
 * POSTs one webhook. When private addresses are not allowed, the address check runs inside the
 * connection's own DNS lookup, so a host that resolves inward at delivery time is refused even if it
 * resolved outward when the URL was saved (no window between check and connect).
 */
export class WebhookSender {
  private readonly agent: Agent;

  constructor(private readonly options: { timeoutMs: number; allowPrivate: boolean; connectionsPerHost: number }) {
    this.agent = new Agent({
      connections: options.connectionsPerHost,
      keepAliveTimeout: 10_000,
      connect: options.allowPrivate ? { timeout: options.timeoutMs } : { timeout: options.timeoutMs, lookup: guardedLookup },
    });
  }

  /**
   * `eventId` is the webhook_events row id, sent as X-MM-Event-Id: the same on every retry of one event,
   * so a receiver can drop a delivery it already processed (deliveries are at least once).
   */
  async send(url: string, body: string, secret: string | null, now: Date, eventId: number): Promise<SendResult> {
    const started = performance.now();
    const done = (ok: boolean, status: number | null, error: string): SendResult => ({ ok, status, error, durationMs: performance.now() - started });
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return done(false, null, 'Invalid webhook URL');
    }
    if (!this.options.allowPrivate) {
      if (target.protocol !== 'https:') return done(false, null, 'Webhook URLs must use https');
      const host = target.hostname.replace(/^\[|\]$/g, '');
      if (isIP(host) && isBlockedAddress(host)) return done(false, null, NOT_ALLOWED);
    }
    const timestamp = String(Math.floor(now.getTime() / 1000));
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'sms-api-webhooks/1',
      'x-mm-event-id': String(eventId),
      'x-mm-timestamp': timestamp,
    };
    if (secret) headers['x-mm-signature'] = signWebhook(secret, timestamp, body);
    // The whole attempt's deadline, cleared when it ends. AbortSignal.timeout's timer outlives the request
    // and, when it fires, builds a DOMException with its stack: about 4% of the deliverer's CPU in a burst.
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new DOMException(`timeout after ${this.options.timeoutMs} ms`, 'TimeoutError')), this.options.timeoutMs);
    try {
      const res = await request(target, {
        method: 'POST',
        headers,
        body,
        dispatcher: this.agent,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
        signal: deadline.signal,
      });
      await res.body.dump();
      const ok = res.statusCode >= 200 && res.statusCode < 300;
      return done(ok, res.statusCode, ok ? '' : `HTTP ${res.statusCode}`);
    } catch (err) {
      const e = err as Error & { code?: string; cause?: Error };
      if (e.name === 'TimeoutError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT' || e.code === 'UND_ERR_CONNECT_TIMEOUT') {
        return done(false, null, `timeout after ${this.options.timeoutMs} ms`);
      }
      return done(false, null, (e.cause?.message ?? e.message).slice(0, 500));
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '');
    const list = addresses as LookupAddress[];
    if (list.length === 0 || list.some((a) => isBlockedAddress(a.address))) {
      return callback(Object.assign(new Error(NOT_ALLOWED), { code: 'EWEBHOOKBLOCKED' }), '');
    }
    if (options.all) return callback(null, list);
    callback(null, list[0].address, list[0].family);
  });
}
