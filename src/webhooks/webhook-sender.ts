import { lookup as dnsLookup, LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { Agent } from 'undici';
import { isBlockedAddress } from '../common/net/address-policy';
import { signWebhook } from './signature';
import { SendResult, WebhookAttemptHandler } from './webhook-attempt-handler';

export const NOT_ALLOWED = 'Webhook URL is not allowed';

/**
 * Where a URL's POSTs go, or why none may (a URL's verdict depends on nothing but the URL), and its host:
 * what the deliverer limits per receiver (the URL itself when it does not parse).
 */
type Target = { host: string } & ({ origin: string; path: string } | { refused: string });

/** Distinct URLs whose verdicts are kept (one per account and kind in use); past it, the map starts over. */
const TARGETS_KEPT = 1024;

/**
 * POSTs one webhook. When private addresses are not allowed, the address check runs inside the
 * connection's own DNS lookup, so a host that resolves inward at delivery time is refused even if it
 * resolved outward when the URL was saved (no window between check and connect).
 */
export class WebhookSender {
  private readonly agent: Agent;
  private readonly targets = new Map<string, Target>();

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
  send(url: string, body: string, secret: string | null, now: Date, eventId: number): Promise<SendResult> {
    const target = this.target(url);
    if ('refused' in target) return Promise.resolve({ ok: false, status: null, error: target.refused, durationMs: 0 });
    const timestamp = String(Math.floor(now.getTime() / 1000));
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'sms-api-webhooks/1',
      'x-mm-event-id': String(eventId),
      'x-mm-timestamp': timestamp,
    };
    if (secret) headers['x-mm-signature'] = signWebhook(secret, timestamp, body);
    const { timeoutMs } = this.options;
    return new Promise((finish) => {
      const handler = new WebhookAttemptHandler(timeoutMs, finish);
      try {
        this.agent.dispatch({ origin: target.origin, path: target.path, method: 'POST', headers, body, headersTimeout: timeoutMs, bodyTimeout: timeoutMs }, handler);
      } catch (err) {
        handler.onError(err as Error);
      }
    });
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  /** The URL's host (with its port), as the deliverer groups receivers. */
  hostOf(url: string): string {
    return this.target(url).host;
  }

  private target(url: string): Target {
    let target = this.targets.get(url);
    if (!target) {
      if (this.targets.size >= TARGETS_KEPT) this.targets.clear();
      target = this.verdict(url);
      this.targets.set(url, target);
    }
    return target;
  }

  private verdict(url: string): Target {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return { host: url, refused: 'Invalid webhook URL' };
    }
    const host = parsed.host;
    if (!this.options.allowPrivate) {
      if (parsed.protocol !== 'https:') return { host, refused: 'Webhook URLs must use https' };
      const address = parsed.hostname.replace(/^\[|\]$/g, '');
      if (isIP(address) && isBlockedAddress(address)) return { host, refused: NOT_ALLOWED };
    }
    return { host, origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
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
