/**
 * Text PostgreSQL can store as given. A `text` column refuses NUL outright, and an unpaired UTF-16
 * surrogate (legal in a JSON string as `\ud800`) has no UTF-8 form, so the driver would silently store
 * U+FFFD instead. Both are refused at the edge, naming the field, rather than failing (or changing) in
 * the database.
 */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this refuses
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}
