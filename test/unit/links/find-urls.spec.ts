import { findUrls } from '../../../src/links/find-urls';

const urls = (text: string) => findUrls(text).map((m) => m.url);

describe(findUrls.name, () => {
  it('finds several http and https URLs with their positions', () => {
    const text = 'A http://a.test/x then https://b.test/y?z=1&w=2#top end';
    expect(findUrls(text)).toEqual([
      { url: 'http://a.test/x', index: 2 },
      { url: 'https://b.test/y?z=1&w=2#top', index: 23 },
    ]);
  });

  it.each([
    ['Visit https://shop.test/sale.', 'https://shop.test/sale'],
    ['Visit https://shop.test/sale!', 'https://shop.test/sale'],
    ['(see https://shop.test/sale)', 'https://shop.test/sale'],
    ['Go: https://shop.test/a, then b', 'https://shop.test/a'],
    ['"https://shop.test/q"', 'https://shop.test/q'],
    ['Wiki https://w.test/A_(b) here', 'https://w.test/A_(b)'],
    ['Ends with slash https://shop.test/.', 'https://shop.test/'],
    ['链接https://shop.test/路径。谢谢', 'https://shop.test/路径'],
    ['HTTPS://SHOP.TEST/X?', 'HTTPS://SHOP.TEST/X'],
  ])('leaves punctuation after the URL out: %j', (text, url) => {
    expect(urls(text)).toEqual([url]);
  });

  it('finds nothing in text without a URL, and ignores a bare scheme or other schemes', () => {
    expect(urls('No links here, just www.shop.test and ftp://x.test')).toEqual([]);
    expect(urls('Broken https:// link')).toEqual([]);
  });

  it('stops at whitespace, control characters and angle brackets', () => {
    expect(urls('https://a.test/x\nhttps://b.test/y\u0000z <https://c.test>')).toEqual(['https://a.test/x', 'https://b.test/y', 'https://c.test']);
  });
});
