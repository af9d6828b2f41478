import { isShortenable } from '../../../src/links/shortenable';
import { LinkRewriter } from '../../../src/links/link-rewriter';

describe(isShortenable.name, () => {
  it.each(['https://example.com.au/sale', 'http://example.com/a?b=c', 'https://93.184.216.34/x', 'https://[2606:4700::1]/x', 'https://shop.example.com./x'])(
    'shortens %s (a public http(s) address)',
    (url) => expect(isShortenable(url)).toBe(true),
  );

  it.each([
    'http://127.0.0.1/admin',
    'http://localhost:8080/',
    'http://LOCALHOST/',
    'http://app.localhost/',
    'https://printer.local/',
    'https://db.internal/',
    'https://router.home.arpa/',
    'http://intranet/',
    'http://10.0.0.5/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data',
    'http://0x7f000001/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'https://user:password@example.com/',
    'https://user@example.com/',
  ])('leaves %s as written (not a public address, or carries credentials)', (url) => expect(isShortenable(url)).toBe(false));

  it('keeps such URLs as written in a message while public ones beside them are shortened', () => {
    const { text, links } = new LinkRewriter('https://s.test', true).finish('Admin http://127.0.0.1/x and https://u:p@example.com/y; shop https://example.com/z', 'alpha');
    expect(links).toEqual([{ code: expect.stringMatching(/^[0-9A-Za-z]{7}$/), kind: 'url', url: 'https://example.com/z' }]);
    expect(text).toBe(`Admin http://127.0.0.1/x and https://u:p@example.com/y; shop https://s.test/${links[0].code}`);
  });
});
