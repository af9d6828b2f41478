import { failure } from '../common/errors/error-catalogue';
import { parseMultipartForm } from './multipart-form';

/** A parsed form: each field a string, or the list of values when it repeats (checkboxes). */
export type FormBody = Record<string, string | string[]>;

/** Forms are small; anything bigger is not a person typing. */
export const FORM_BODY_LIMIT_BYTES = 64 * 1024;

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Parses the body of a page route: `application/x-www-form-urlencoded` (what an HTML form sends), and
 * on routes that take a file (`uploadLimitBytes` > 0) `multipart/form-data` up to that size (as bytes:
 * the file may not be UTF-8); an empty body is no body. Keys that could reach an object's prototype are dropped.
 */
export function parseFormBody(contentType: string | undefined, body: string | Buffer, uploadLimitBytes = 0): FormBody | undefined {
  if (body.length === 0) return undefined;
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'multipart/form-data' && uploadLimitBytes > 0) {
    if (Buffer.byteLength(body) > uploadLimitBytes) throw failure('bodyTooLarge');
    return parseMultipartForm(contentType!, body);
  }
  const text = typeof body === 'string' ? body : body.toString('utf8');
  if (type !== 'application/x-www-form-urlencoded') throw failure('formContentType');
  if (Buffer.byteLength(text) > FORM_BODY_LIMIT_BYTES) throw failure('bodyTooLarge');
  const form: FormBody = {};
  for (const [key, value] of new URLSearchParams(text)) {
    if (FORBIDDEN_KEYS.has(key)) continue;
    const seen = Object.prototype.hasOwnProperty.call(form, key) ? form[key] : undefined;
    form[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return form;
}

/** One text field of a form (the last value if it was sent twice), trimmed; '' when absent. */
export function formText(form: FormBody | undefined, name: string): string {
  const value = form && Object.prototype.hasOwnProperty.call(form, name) ? form[name] : undefined;
  if (value === undefined) return '';
  return (Array.isArray(value) ? value[value.length - 1] : value).trim();
}

/** Every value of a repeated field (checkboxes). */
export function formList(form: FormBody | undefined, name: string): string[] {
  const value = form && Object.prototype.hasOwnProperty.call(form, name) ? form[name] : undefined;
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
