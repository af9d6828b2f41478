import { isUtf8 } from 'node:buffer';
import { failure } from '../common/errors/error-catalogue';
import type { FormBody } from './form-body';

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** The form field under which a file part's name is kept: `<field>:filename`. */
export const filenameField = (field: string) => `${field}:filename`;

/** The form field set (to `yes`) when a file part is not UTF-8 text (bytes UTF-8 cannot decode, or NUL: a binary file); its value is then ''. */
export const notTextField = (field: string) => `${field}:not-text`;

/** Bytes held one character each (latin1) as UTF-8 text; null when they are not UTF-8. */
function utf8Of(latin1: string): string | null {
  const bytes = Buffer.from(latin1, 'latin1');
  return isUtf8(bytes) ? bytes.toString('utf8') : null;
}

function quotedParam(header: string, name: string): string | undefined {
  return new RegExp(`(?:^|;)\\s*${name}="([^"]*)"`, 'i').exec(header)?.[1];
}

/**
 * Parses a `multipart/form-data` body (RFC 7578): what an HTML form with a file input sends. Each part
 * becomes a field like a urlencoded one; a file part's content is its value (text: CSV uploads) and its
 * file name is kept under `<field>:filename`. The body is read as bytes (one latin1 character each, so the
 * ASCII delimiters split it exactly) and each part decoded as UTF-8: a file that is not UTF-8 text is kept
 * as '' and marked under `<field>:not-text`, for the page to explain; a text field that is not UTF-8 is
 * malformed. Anything that is not well-formed multipart is refused as a whole.
 */
export function parseMultipartForm(contentType: string, body: string | Buffer): FormBody {
  const text = (typeof body === 'string' ? Buffer.from(body, 'utf8') : body).toString('latin1');
  const boundary = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!boundary) throw failure('malformedUpload');
  const delimiter = `--${boundary[1] ?? boundary[2]}`;
  const parts = text.split(`\r\n${delimiter}`);
  // The first part follows the opening delimiter; the last ends with the closing `--`.
  if (!parts[0].startsWith(delimiter)) throw failure('malformedUpload');
  parts[0] = parts[0].slice(delimiter.length);
  const form: FormBody = {};
  let closed = false;
  for (const part of parts) {
    if (part.startsWith('--')) {
      closed = true;
      break;
    }
    if (!part.startsWith('\r\n')) throw failure('malformedUpload');
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd < 0) throw failure('malformedUpload');
    const headers = Buffer.from(part.slice(2, headerEnd), 'latin1').toString('utf8');
    const disposition = /^content-disposition:\s*form-data(.*)$/im.exec(headers);
    const name = disposition ? quotedParam(disposition[1], 'name') : undefined;
    if (name === undefined) throw failure('malformedUpload');
    if (FORBIDDEN_KEYS.has(name)) continue;
    const filename = quotedParam(disposition![1], 'filename');
    const decoded = utf8Of(part.slice(headerEnd + 4));
    if (decoded === null && filename === undefined) throw failure('malformedUpload');
    const isText = decoded !== null && !(filename !== undefined && decoded.includes('\u0000'));
    const value = isText ? decoded : '';
    const seen = Object.prototype.hasOwnProperty.call(form, name) ? form[name] : undefined;
    form[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
    if (filename !== undefined) form[filenameField(name)] = filename;
    if (!isText) form[notTextField(name)] = 'yes';
  }
  if (!closed) throw failure('malformedUpload');
  return form;
}
