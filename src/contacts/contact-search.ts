/**
 * Search over an account's contacts by any field, one box for people: a number in any form, a name, a
 * company, any text field. Two trigram indexes serve it (migration ContactSearch): one over the number
 * in both its forms, one over the text fields, each led by account_id (btree_gin), so a search never
 * reads another account's matches. These expressions are the indexes' own and must stay byte for byte
 * what the migration declares, or PostgreSQL cannot use them.
 */
export const NUMBER_SEARCH_EXPRESSION = `(number || ' 0' || substr(number, 3))`;
export const TEXT_SEARCH_EXPRESSION = `lower(first_name || ' ' || last_name || ' ' || company || ' ' || other || ' ' || field_1 || ' ' || field_2 || ' ' || field_3 || ' ' || field_4 || ' ' || field_5)`;

/** The longest search a person types; anything longer is cut (a pasted paragraph is not a search). */
export const SEARCH_MAX_LENGTH = 100;

/** Trigrams need three characters: a shorter search cannot use the indexes and reads contacts in order instead. */
export const TRIGRAM = 3;

export interface ContactSearch {
  /** LIKE pattern on the text fields (lowercase). */
  text: string;
  /** LIKE pattern on the number's digits (61… and 0… forms), or null when the search is not a number of 3 digits or more. */
  digits: string | null;
  /** Shorter than a trigram: matched by reading contacts in order, a bounded number per page. */
  short: boolean;
}

/** Characters a person writes inside a phone number: `0412 345 678`, `(04) 1234-5678`, `+61 412…`. */
const PHONE_LIKE = /^[\d\s()+.-]+$/;

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * What a search box's text means. Text that looks like (part of) a phone number matches numbers by their
 * digits, separators ignored, and the text fields as typed (an `other` of "Order 1234" is found by
 * 1234); anything else matches the text fields, case-insensitively. Null for a blank search.
 */
export function contactSearchOf(raw: string): ContactSearch | null {
  const typed = raw.trim().slice(0, SEARCH_MAX_LENGTH);
  if (typed === '') return null;
  const text = `%${escapeLike(typed.toLowerCase())}%`;
  const short = typed.length < TRIGRAM;
  const digits = PHONE_LIKE.test(typed) ? typed.replace(/\D/g, '') : '';
  return { text, digits: digits.length >= TRIGRAM ? `%${digits}%` : null, short };
}
