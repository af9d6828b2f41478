import type { NestFastifyApplication } from '@nestjs/platform-fastify';

export interface PageResponse {
  status: number;
  html: string;
  location: string | undefined;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * A browser without JavaScript, over inject(): keeps its cookies, reads the CSRF token off the last
 * page, and posts forms as application/x-www-form-urlencoded. Redirects are not followed, so tests
 * see the 303s.
 */
export class PageClient {
  readonly cookies = new Map<string, string>();
  csrf = '';

  constructor(
    private readonly app: NestFastifyApplication,
    private readonly defaults: { remoteAddress?: string; headers?: Record<string, string> } = {},
  ) {}

  async get(url: string, headers: Record<string, string> = {}): Promise<PageResponse> {
    return this.send('GET', url, undefined, headers);
  }

  /** Posts a form; the CSRF token of the last page goes with it unless the fields say otherwise. */
  async post(url: string, fields: Record<string, string | string[]> = {}, headers: Record<string, string> = {}): Promise<PageResponse> {
    const body = new URLSearchParams();
    if (!('_csrf' in fields)) body.append('_csrf', this.csrf);
    for (const [name, value] of Object.entries(fields)) for (const v of Array.isArray(value) ? value : [value]) body.append(name, v);
    return this.send('POST', url, body.toString(), { 'content-type': 'application/x-www-form-urlencoded', ...headers });
  }

  async send(method: string, url: string, payload: string | Buffer | undefined, headers: Record<string, string>): Promise<PageResponse> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await this.app.inject({
      method: method as 'GET',
      url,
      payload,
      remoteAddress: this.defaults.remoteAddress,
      headers: { accept: 'text/html', ...(this.defaults.headers ?? {}), ...(cookie ? { cookie } : {}), ...headers },
    });
    for (const line of setCookies(res.headers['set-cookie'])) {
      const [pair, ...attributes] = line.split(';');
      const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const html = res.body;
    const token = /name="_csrf" value="([^"]+)"/.exec(html);
    if (token) this.csrf = token[1];
    return { status: res.statusCode, html, location: res.headers.location as string | undefined, headers: res.headers as PageResponse['headers'] };
  }
}

function setCookies(header: string | string[] | undefined): string[] {
  if (!header) return [];
  return Array.isArray(header) ? header : [header];
}

/** The text of an HTML fragment, tags dropped and entities of our escaping undone, whitespace collapsed. */
export function textOf(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&#x3D;/g, '=')
    .replace(/&#x60;/g, '`')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}
