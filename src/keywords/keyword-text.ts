import type { KeywordMatch } from './keyword-rule.entity';

/** At most this many characters of a keyword or pattern (and the column's check). */
export const KEYWORD_MAX_LENGTH = 40;
const KEYWORD_SHAPE = /^[A-Z0-9*? ]+$/;

/**
 * A reply as rules compare it: upper case, inner whitespace collapsed to one space, and punctuation
 * trimmed from both ends ("Join!" and " join " both read JOIN).
 */
export function normaliseReply(text: string): string {
  return text
    .toUpperCase()
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
}

/** The first word of a normalised reply, without its punctuation ("YES, PLEASE" reads YES). */
export function firstWordOf(normalised: string): string {
  return (normalised.split(' ', 1)[0] ?? '').replace(/[^\p{L}\p{N}]+$/gu, '');
}

/**
 * A keyword as stored: upper case, spaces collapsed; null when it cannot be one. Only letters A-Z,
 * digits and spaces, plus `*` and `?` in a pattern: no regular expressions, so matching is linear in
 * the reply's length and one rule cannot stall intake.
 */
export function parseKeyword(raw: string, match: KeywordMatch): string | null {
  const keyword = raw.toUpperCase().trim().replace(/\s+/g, ' ');
  if (keyword === '' || keyword.length > KEYWORD_MAX_LENGTH || !KEYWORD_SHAPE.test(keyword)) return null;
  const wild = /[*?]/.test(keyword);
  if (match !== 'pattern' && wild) return null;
  if (match === 'first_word' && keyword.includes(' ')) return null;
  // A pattern of wildcards alone would answer every reply the account ever gets.
  if (match === 'pattern' && !/[A-Z0-9]/.test(keyword)) return null;
  return keyword;
}

/**
 * A stored pattern as a LIKE pattern: `*` any run, `?` one character. A keyword holds no `%`, `_` or
 * backslash (parseKeyword), so nothing needs escaping; PostgreSQL's LIKE never backtracks exponentially.
 */
export function patternToLike(keyword: string): string {
  return keyword.replace(/\*/g, '%').replace(/\?/g, '_');
}

/** The same rule in memory (tests and the page's preview): does the pattern match the whole reply? */
export function matchesPattern(keyword: string, normalised: string): boolean {
  // Iterative wildcard matching with one backtrack point: O(pattern × text) at worst.
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < normalised.length) {
    if (p < keyword.length && (keyword[p] === '?' || keyword[p] === normalised[t])) {
      p++;
      t++;
    } else if (p < keyword.length && keyword[p] === '*') {
      star = p++;
      resume = t;
    } else if (star >= 0) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < keyword.length && keyword[p] === '*') p++;
  return p === keyword.length;
}

/** Whether a rule matches a reply (the SQL statement in KeywordRulesRepository says the same). */
export function ruleMatches(rule: { match: KeywordMatch; keyword: string }, normalised: string): boolean {
  if (rule.match === 'exact') return normalised === rule.keyword;
  if (rule.match === 'first_word') return firstWordOf(normalised) === rule.keyword;
  return matchesPattern(rule.keyword, normalised);
}
