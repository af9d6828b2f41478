import { addressAllowed, cidrContains, formatCidr, parseAddress, parseCidr } from '../../../../src/common/net/cidr';

describe('CIDR allow-lists', () => {
  it.each([
    ['203.0.113.7/24', '203.0.113.0/24'],
    ['203.0.113.7', '203.0.113.7/32'],
    ['0.0.0.0/0', '0.0.0.0/0'],
    ['10.1.2.3/8', '10.0.0.0/8'],
    ['2001:DB8::1/32', '2001:db8::/32'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1/128'],
    ['2001:0db8:0000:0000:0000:0000:0000:0001/64', '2001:db8::/64'],
    ['::/0', '::/0'],
    ['::1', '::1/128'],
    ['64:ff9b::192.0.2.33/128', '64:ff9b::c000:221/128'],
    ['fe80::1:2:3:4/10', 'fe80::/10'],
  ])('parses %s as %s', (text, canonical) => {
    const block = parseCidr(text);
    expect(block && formatCidr(block)).toBe(canonical);
  });

  it.each([
    '',
    '203.0.113.0/33',
    '203.0.113/24',
    '256.1.1.1',
    '01.2.3.4',
    '1.2.3.4/',
    '1.2.3.4/-1',
    '1.2.3.4/08x',
    '2001:db8::/129',
    '2001:db8:::1',
    'fe80::1%eth0',
    'example.com',
    '1.2.3.4/24/1',
    '::ffff:1.2.3.4/120',
    ' 1.2.3.4',
  ])('refuses %j', (text) => {
    expect(parseCidr(text)).toBeNull();
  });

  it('matches addresses of the same version inside the block only', () => {
    const v4 = parseCidr('203.0.113.0/24')!;
    expect(['203.0.113.0', '203.0.113.255', '::ffff:203.0.113.9'].map((a) => cidrContains(v4, a))).toEqual([true, true, true]);
    expect(['203.0.112.255', '203.0.114.0', '::ffff:cb00:7109', '2001:db8::1', 'junk'].map((a) => cidrContains(v4, a))).toEqual([false, false, false, false, false]);
    const v6 = parseCidr('2001:db8::/32')!;
    expect(['2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', '2001:DB8:1::9'].map((a) => cidrContains(v6, a))).toEqual([true, true, true]);
    expect(['2001:db9::', '2001:db7:ffff::', '203.0.113.1'].map((a) => cidrContains(v6, a))).toEqual([false, false, false]);
    expect(cidrContains(parseCidr('0.0.0.0/0')!, '198.51.100.1')).toBe(true);
    expect(cidrContains(parseCidr('::/0')!, '198.51.100.1')).toBe(false);
  });

  it('reads an IPv4-mapped IPv6 peer as its IPv4 address', () => {
    expect(parseAddress('::ffff:10.0.0.1')).toEqual(parseAddress('10.0.0.1'));
    expect(addressAllowed(['10.0.0.0/8'], '::ffff:10.200.0.1')).toBe(true);
    expect(addressAllowed(['10.0.0.0/8', '2001:db8::/32'], '11.0.0.1')).toBe(false);
    expect(addressAllowed([], '10.0.0.1')).toBe(false);
  });
});
