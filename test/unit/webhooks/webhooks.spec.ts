import { createHmac } from 'node:crypto';
import { signWebhook, verifyWebhookSignature } from '../../../src/webhooks/signature';
import { checkUrlSyntax, isBlockedAddress } from '../../../src/webhooks/url-policy';
import { retryDelayMs } from '../../../src/webhooks/webhook-delivery.service';

describe(verifyWebhookSignature.name, () => {
  const secret = 'whsec_test';
  const body = '{"to":"61412345678","status":"delivered"}';
  const ts = '1795000000';
  const now = new Date(Number(ts) * 1000);

  it('signs as the supplement says: hex HMAC-SHA256 of timestamp "." body, keyed with the secret', () => {
    expect(signWebhook(secret, ts, body)).toBe(createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex'));
  });

  it('accepts a genuine signature within 300 s either way', () => {
    const sig = signWebhook(secret, ts, body);
    expect(verifyWebhookSignature(secret, ts, body, sig, now)).toBe(true);
    expect(verifyWebhookSignature(secret, ts, Buffer.from(body), sig, new Date(now.getTime() + 300_000))).toBe(true);
    expect(verifyWebhookSignature(secret, ts, body, sig, new Date(now.getTime() - 300_000))).toBe(true);
  });

  it('refuses tampering, another secret, stale or future timestamps and malformed headers', () => {
    const sig = signWebhook(secret, ts, body);
    expect(verifyWebhookSignature(secret, ts, `${body} `, sig, now)).toBe(false);
    expect(verifyWebhookSignature('whsec_other', ts, body, sig, now)).toBe(false);
    expect(verifyWebhookSignature(secret, ts, body, sig, new Date(now.getTime() + 301_000))).toBe(false);
    expect(verifyWebhookSignature(secret, ts, body, sig, new Date(now.getTime() - 301_000))).toBe(false);
    expect(verifyWebhookSignature(secret, String(Number(ts) + 1), body, sig, now)).toBe(false);
    expect(verifyWebhookSignature(secret, 'abc', body, sig, now)).toBe(false);
    expect(verifyWebhookSignature(secret, ts, body, sig.toUpperCase(), now)).toBe(false);
    expect(verifyWebhookSignature(secret, ts, body, sig.slice(2), now)).toBe(false);
  });
});

describe(isBlockedAddress.name, () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:10.0.0.1',
  ])('blocks %s', (address) => expect(isBlockedAddress(address)).toBe(true));
  it.each(['93.184.216.34', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows %s', (address) => expect(isBlockedAddress(address)).toBe(false));
});

describe(checkUrlSyntax.name, () => {
  it('requires https unless private networks are allowed, and a host without credentials', () => {
    expect(checkUrlSyntax('https://example.com/x', false)).toMatchObject({ ok: true });
    expect(checkUrlSyntax('http://example.com/x', false)).toEqual({ ok: false, reason: 'not_https' });
    expect(checkUrlSyntax('http://example.com/x', true)).toMatchObject({ ok: true });
    expect(checkUrlSyntax('ws://example.com', true)).toEqual({ ok: false, reason: 'invalid' });
    expect(checkUrlSyntax('https://u:p@example.com', false)).toEqual({ ok: false, reason: 'invalid' });
    expect(checkUrlSyntax('example.com', false)).toEqual({ ok: false, reason: 'invalid' });
  });
});

describe(retryDelayMs.name, () => {
  it('doubles from the base, caps at the maximum and jitters by ±20%', () => {
    const mid = () => 0.5;
    expect([1, 2, 3, 4, 7, 10].map((n) => retryDelayMs(n, 60_000, 3_600_000, mid))).toEqual([60_000, 120_000, 240_000, 480_000, 3_600_000, 3_600_000]);
    expect(retryDelayMs(1, 60_000, 3_600_000, () => 0)).toBe(48_000);
    expect(retryDelayMs(1, 60_000, 3_600_000, () => 0.9999999)).toBe(72_000);
  });
});
