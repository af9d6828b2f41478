import { analyseMessage } from '../../../src/common/sms';
import { LinkRewriter, OPTOUT_MARK, recodeText, shortUrlOf } from '../../../src/links/link-rewriter';

const BASE = 'https://s.test';
const SHORT = /https:\/\/s\.test\/([0-9A-Za-z]{7})/g;

describe(LinkRewriter.name, () => {
  it('replaces every URL of a message with its own 7-character code, keeping the text around it', () => {
    const { text, links } = new LinkRewriter(BASE, true).finish('Sale https://a.test/x. Info: https://b.test/y!', 'alpha');
    expect(text).toMatch(/^Sale https:\/\/s\.test\/[0-9A-Za-z]{7}\. Info: https:\/\/s\.test\/[0-9A-Za-z]{7}!$/);
    expect(links).toEqual([
      { code: expect.stringMatching(/^[0-9A-Za-z]{7}$/), kind: 'url', url: 'https://a.test/x' },
      { code: expect.stringMatching(/^[0-9A-Za-z]{7}$/), kind: 'url', url: 'https://b.test/y' },
    ]);
    expect([...text.matchAll(SHORT)].map((m) => m[1])).toEqual(links.map((l) => l.code));
  });

  it('gives a URL repeated in one message one code, and each recipient their own codes', () => {
    const rewriter = new LinkRewriter(BASE, true);
    const one = rewriter.finish('https://a.test and again https://a.test', 'alpha');
    const two = rewriter.finish('https://a.test and again https://a.test', 'alpha');
    expect(one.links).toHaveLength(1);
    expect(new Set([...one.text.matchAll(SHORT)].map((m) => m[1]))).toEqual(new Set([one.links[0].code]));
    expect(two.links[0].code).not.toBe(one.links[0].code);
  });

  it('draws codes at random, all distinct across a large batch', () => {
    const rewriter = new LinkRewriter(BASE, true);
    const codes = Array.from({ length: 20000 }, () => rewriter.finish('https://a.test', 'alpha').links[0].code);
    expect(new Set(codes).size).toBe(20000);
    // Not sequential: neighbours share no common prefix pattern.
    expect(codes.slice(0, 100).filter((c, i) => i > 0 && c.slice(0, 5) === codes[i - 1].slice(0, 5))).toEqual([]);
  });

  it('leaves URLs alone without shorten_urls', () => {
    expect(new LinkRewriter(BASE, false).finish('See https://a.test', 'alpha')).toEqual({ text: 'See https://a.test', links: [] });
  });

  it('makes a per-recipient opt-out link for alphanumeric and own senders, never shortened, shorter than the account link', () => {
    const rewriter = new LinkRewriter(BASE, true);
    const { text, links } = rewriter.finish(`Hi https://a.test${OPTOUT_MARK}`, 'own');
    expect(links.map((l) => l.kind)).toEqual(['url', 'optout']);
    expect(text).toBe(`Hi ${shortUrlOf(BASE, 'url', links[0].code)} OptOut ${BASE}/o/${links[1].code}`);
    expect(` OptOut ${BASE}/o/${links[1].code}`.length).toBeLessThan(` OptOut ${BASE}/o/${'x'.repeat(10)}`.length);
  });

  it('writes Reply Stop for dedicated and shared numbers, with no link', () => {
    expect(new LinkRewriter(BASE, false).finish(`Hi${OPTOUT_MARK}`, 'dedicated')).toEqual({ text: 'Hi Opt out: Reply Stop', links: [] });
  });

  it('shortens Unicode text and keeps it UCS-2', () => {
    const { text } = new LinkRewriter(BASE, true).finish('Привет https://a.test/путь 😀', 'alpha');
    expect(text).toMatch(/^Привет https:\/\/s\.test\/[0-9A-Za-z]{7} 😀$/);
    expect(analyseMessage(text, true)).toMatchObject({ encoding: 'ucs2', parts: 1 });
  });
});

describe(recodeText.name, () => {
  it('swaps one code for another of the same length', () => {
    const text = `A ${BASE}/aaaaaaa B ${BASE}/o/bbbbbbb`;
    expect(recodeText(text, BASE, 'url', 'aaaaaaa', 'ccccccc')).toBe(`A ${BASE}/ccccccc B ${BASE}/o/bbbbbbb`);
    expect(recodeText(text, BASE, 'optout', 'bbbbbbb', 'ddddddd')).toBe(`A ${BASE}/aaaaaaa B ${BASE}/o/ddddddd`);
  });
});
