import type { Readable } from 'node:stream';

/** What a page handler returns: a template to render, where to send the browser next, a file to download, or JSON for a page's own script. */
export type PageResult = ViewResult | RedirectResult | FileResult | JsonResult | StreamResult;

/** A download written as it is produced (an export of any size): never held whole in memory. */
export interface StreamResult {
  kind: 'stream';
  contentType: string;
  filename: string;
  body: Readable;
}

export function streamDownload(contentType: string, filename: string, body: Readable): StreamResult {
  return { kind: 'stream', contentType, filename: filename.replace(/[^A-Za-z0-9._-]/g, '_'), body };
}

/** An answer to a page's script (a live preview, progress counts): same session, CSRF and guards as the page. */
export interface JsonResult {
  kind: 'json';
  body: unknown;
  status: number;
}

export function json(body: unknown, status = 200): JsonResult {
  return { kind: 'json', body, status };
}

export interface FileResult {
  kind: 'file';
  contentType: string;
  /** Offered as the download's name (ASCII letters, digits, `.`, `-`, `_`). */
  filename: string;
  body: Buffer;
}

export interface ViewResult {
  kind: 'view';
  /** Path under src/ without the extension, e.g. `dashboard/views/overview`. */
  template: string;
  model: Record<string, unknown>;
  status: number;
}

export interface RedirectResult {
  kind: 'redirect';
  location: string;
  /** 303 unless said otherwise (a short link answers 302). */
  status?: 302 | 303;
}

export function view(template: string, model: Record<string, unknown>, status = 200): ViewResult {
  return { kind: 'view', template, model, status };
}

/** A download (an invoice PDF). */
export function fileDownload(contentType: string, filename: string, body: Buffer): FileResult {
  return { kind: 'file', contentType, filename: filename.replace(/[^A-Za-z0-9._-]/g, '_'), body };
}

/** 303 See Other: after a form post the browser GETs the next page (a reload does not post again). */
export function redirectTo(location: string, status: 302 | 303 = 303): RedirectResult {
  return { kind: 'redirect', location, status };
}

const LOCAL_ORIGIN = 'http://local.invalid';

/**
 * A same-site path to return to after signing in; anything else falls back. The candidate is resolved by the
 * WHATWG URL parser (the one browsers use, which strips TAB/CR/LF and reads `\` as `/`) against a placeholder
 * origin, and kept only if it stays on that origin; control characters and whitespace are refused outright,
 * so `/<TAB>/evil.example` never becomes `//evil.example` in a browser. The path returned is the parser's.
 */
export function safeLocalPath(candidate: string | undefined, fallback: string): string {
  if (!candidate || !candidate.startsWith('/') || /[\p{Cc}\p{Z}\s\u200b-\u200f\ufeff]/u.test(candidate)) return fallback;
  let resolved: URL;
  try {
    resolved = new URL(candidate, LOCAL_ORIGIN);
  } catch {
    return fallback;
  }
  if (resolved.origin !== LOCAL_ORIGIN || resolved.username || resolved.password) return fallback;
  const path = `${resolved.pathname}${resolved.search}${resolved.hash}`;
  // A path the parser normalised into `//host` (from `/..//host`) would read as another origin once sent back.
  return path.startsWith('//') || path.startsWith('/\\') ? fallback : path;
}
