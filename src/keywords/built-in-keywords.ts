import { STOP_WORDS } from './stop-words';
import { firstWordOf } from './keyword-text';

/** What a reply's keyword makes happen: an account's rule or a built-in one. */
export interface KeywordActions {
  /** The account's rule; null for a built-in keyword. */
  ruleId: number | null;
  keyword: string;
  reply: string | null;
  addToListId: number | null;
  removeFromListId: number | null;
  optOut: boolean;
  optIn: boolean;
}

export interface BuiltInKeyword {
  name: 'START' | 'HELP';
  words: readonly string[];
  optIn: boolean;
  describe: string;
  reply: (businessName: string) => string;
}

/**
 * The keywords every account answers unless one of its own rules matches first (an account overrides
 * START or HELP with a rule of that keyword). Matched on the first word, as STOP is.
 */
export const BUILT_IN_KEYWORDS: readonly BuiltInKeyword[] = [
  {
    name: 'START',
    words: ['START', 'UNSTOP'],
    optIn: true,
    describe: 'Opts the number back in and confirms it',
    reply: (business) => `${business}: you are subscribed again. Reply STOP to opt out.`,
  },
  {
    name: 'HELP',
    words: ['HELP', 'INFO'],
    optIn: false,
    describe: 'Answers with the business name and how to opt out',
    reply: (business) => `${business}: this number sends you our messages. Reply STOP to opt out, START to opt back in.`,
  },
];

/** The built-in keyword a normalised reply starts with, as the actions it takes; null for none. */
export function builtInFor(normalised: string, businessName: string): KeywordActions | null {
  const first = firstWordOf(normalised);
  const builtIn = BUILT_IN_KEYWORDS.find((b) => b.words.includes(first));
  if (!builtIn) return null;
  return { ruleId: null, keyword: builtIn.name, reply: builtIn.reply(businessName), addToListId: null, removeFromListId: null, optOut: false, optIn: builtIn.optIn };
}

/** True when a keyword is one of the STOP family, which no rule can override (only confirm). */
export function isStopWord(keyword: string): boolean {
  return STOP_WORDS.has(keyword);
}
