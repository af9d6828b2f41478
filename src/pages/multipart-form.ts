import { failure } from '../common/errors/error-catalogue';
import type { FormBody } from './form-body';

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** The form field under which a file part's name is kept: `<field>:filename`. */
export const filenameField = (field: string) => `${field}:filename`;

function quotedParam(header: string, name: string): string | undefined {
  return new RegExp(`(?:^|;)\\s*${name}="([^"]*)"`, 'i').exec(header)?.[1];
}

/**
 * Parses a `multipart/form-data` body (RFC 7578) that arrived as text: what an HTML form with a file
 * input sends. Each part becomes a field like a urlencoded one; a file part's content is its value (text:
 * CSV uploads) and its file name is kept under `<field>:filename`. Anything that is not well-formed
 * multipart is refused as a whole.
 */
export function parseMultipartForm(contentType: string, text: string): FormBody {
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
    const headers = part.slice(2, headerEnd);
    const disposition = /^content-disposition:\s*form-data(.*)$/im.exec(headers);
    const name = disposition ? quotedParam(disposition[1], 'name') : undefined;
    if (name === undefined) throw failure('malformedUpload');
    if (FORBIDDEN_KEYS.has(name)) continue;
    const value = part.slice(headerEnd + 4);
    const seen = Object.prototype.hasOwnProperty.call(form, name) ? form[name] : undefined;
    form[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
    const filename = quotedParam(disposition![1], 'filename');
    if (filename !== undefined) form[filenameField(name)] = filename;
  }
  if (!closed) throw failure('malformedUpload');
  return form;
}
