import { createHmac } from 'node:crypto';
import { signWebhook, verifyWebhookSignature } from '../../../src/webhooks/signature';
import { checkUrlSyntax, WEBHOOK_URL_MAX_LENGTH } from '../../../src/webhooks/url-policy';
import { embeddedIpv4, ipv6Octets, isBlockedAddress, ownAddresses } from '../../../src/common/net/address-policy';
import { ErrorText } from '../../../src/common/errors/error-catalogue';
import { retryDelayMs } from '../../../src/webhooks/attempt-outcome';

describe(verifyWebhookSignature.name, () => {
  const secret = 'whsec_test';
  const body = '{"to":"61412345678","status":"delivered"}';
  const ts = '1795000000';
  const now = new Date(Number(ts) * 1000);

  it('signs as the supplement says: hex HMAC-SHA256 of timestamp "." body, keyed with the secret', () => {
    expect(signWebhook(secret, ts, body)).toBe(createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex'));
  });

  it("keys with the secret's UTF-8 bytes, whatever characters it has", () => {
    const secret = 'whsec_é✓';
    expect(signWebhook(secret, ts, body)).toBe(createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${ts}.${body}`).digest('hex'));
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
  const none = new Set<string>();
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
    // documentation and benchmarking ranges
    '192.0.2.10',
    '198.51.100.7',
    '203.0.113.200',
    '198.19.255.1',
    '2001:db8::1',
    '3fff:1::1',
    '2001:2::1',
    // IPv6 forms embedding a refused IPv4 address
    '::127.0.0.1',
    '::7f00:1',
    '::ffff:7f00:1',
    '::ffff:0:127.0.0.1',
    '::ffff:0:a9fe:a9fe',
    '64:ff9b::127.0.0.1',
    '64:ff9b::a00:1',
    '64:ff9b:1::8.8.8.8',
    '2002:7f00:1::',
    '2002:a9fe:a9fe::1',
    '2002:c0a8:101:1::1',
    '2001:0:7f00:1::1',
    '2001:0:4136:e378:8000:63bf:80ff:fffe',
    '[::1]',
    'fe80::1%eth0',
    'not an address',
  ])('blocks %s', (address) => expect(isBlockedAddress(address, none)).toBe(true));

  it.each([
    '93.184.216.34',
    '1.1.1.1',
    '172.32.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '::8.8.8.8',
    '64:ff9b::8.8.8.8',
    '2002:808:808::1',
    '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
  ])('allows %s', (address) => expect(isBlockedAddress(address, none)).toBe(false));

  it("refuses the machine's own interface addresses, in every form that reaches them", () => {
    const own = new Set(['93.184.216.34', Buffer.from(ipv6Octets('2606:4700::6810:84e5')!).toString('hex')]);
    for (const address of ['93.184.216.34', '::ffff:93.184.216.34', '2002:5db8:d822::1', '2606:4700::6810:84e5', '2606:4700:0:0:0:0:6810:84e5']) {
      expect([address, isBlockedAddress(address, own)]).toEqual([address, true]);
    }
  });

  it('reads the real interface list by default (loopback is always there)', () => {
    expect(ownAddresses().has('127.0.0.1')).toBe(true);
  });
});

describe(embeddedIpv4.name, () => {
  it.each([
    ['::ffff:1.2.3.4', ['1.2.3.4']],
    ['::102:304', ['1.2.3.4']],
    ['64:ff9b::102:304', ['1.2.3.4']],
    ['2002:102:304::', ['1.2.3.4']],
    ['2001:0:102:304::fefd:fcfb', ['1.2.3.4', '1.2.3.4']],
    ['2606:4700::1', []],
  ])('finds the IPv4 address in %s', (address, expected) => expect(embeddedIpv4(ipv6Octets(address)!)).toEqual(expected));
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

  it.each([
    'https://example.com/a\r\nb',
    'https://example.com/a b',
    'https://example.com/\tx',
    'https://exa\nmple.com/',
    'https://example.com/a\u00a0b',
    'https://example.com/a\u2028',
    'https://example.com/\u0000',
    'https://example.com/\u007f',
  ])('refuses %j: whitespace and control characters are refused, not cleaned by the parser', (url) =>
    expect(checkUrlSyntax(url, true)).toEqual({ ok: false, reason: 'whitespace' }),
  );

  it(`caps URLs at ${WEBHOOK_URL_MAX_LENGTH} characters, matching the catalogue text`, () => {
    const base = 'https://example.com/';
    expect(checkUrlSyntax(base + 'a'.repeat(WEBHOOK_URL_MAX_LENGTH - base.length), false)).toMatchObject({ ok: true });
    expect(checkUrlSyntax(base + 'a'.repeat(WEBHOOK_URL_MAX_LENGTH - base.length + 1), false)).toEqual({ ok: false, reason: 'too_long' });
    expect(ErrorText.webhookUrlTooLong).toBe(`Webhook URLs must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`);
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
