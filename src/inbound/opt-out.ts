import { STOP_WORDS } from '../keywords/stop-words';

/** True when the reply's first word, without surrounding punctuation, is a STOP-family word. */
export function isOptOut(text: string): boolean {
  const first = text.trim().split(/\s+/, 1)[0] ?? '';
  return STOP_WORDS.has(first.replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '').toUpperCase());
}
