/**
 * Finds the http(s) URLs of a rendered message. A URL runs from `http://` or `https://` (any case) to
 * the next whitespace, control character, `<`, `>`, `"` or CJK/full-width punctuation; punctuation that ends a sentence after it
 * (`.`, `,`, `!`, `?`, `:`, `;`, quotes, Unicode punctuation such as `。`) is not part of it, and a
 * closing bracket only when the URL has no matching opening one (`https://x.test/a_(b)` keeps it).
 */
const URL_RE = /https?:\/\/[^\s<>"\p{Cc}\u3000-\u303f\uff01-\uff0f\uff1a-\uff20]+/giu;
const TRAILING = /[.,!?:;'\u2019\u201d\u2026\p{Po}\p{Pf}]$/u;
const CLOSERS: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

export interface UrlMatch {
  url: string;
  index: number;
}

function isAsciiAlphanumeric(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

function trimUrl(raw: string): string {
  let url = raw;
  for (;;) {
    // Most URLs end in a letter or digit: no punctuation to weigh.
    if (isAsciiAlphanumeric(url.charCodeAt(url.length - 1))) return url;
    const last = url[url.length - 1];
    if (last === '/' || last === '#' || last === '=' || last === '&' || last === '%') return url;
    const opener = CLOSERS[last];
    if (opener !== undefined) {
      const opens = url.split(opener).length - 1;
      const closes = url.split(last).length - 1;
      if (closes <= opens) return url;
      url = url.slice(0, -1);
      continue;
    }
    if (!TRAILING.test(last)) return url;
    url = url.slice(0, -1);
  }
}

export function findUrls(text: string): UrlMatch[] {
  if (!/https?:\/\//i.test(text)) return [];
  const found: UrlMatch[] = [];
  URL_RE.lastIndex = 0;
  for (let m = URL_RE.exec(text); m !== null; m = URL_RE.exec(text)) {
    const url = trimUrl(m[0]);
    // `https://` alone (or followed only by punctuation) names nothing.
    if (url.length === url.indexOf('://') + 3) continue;
    found.push({ url, index: m.index });
  }
  return found;
}
