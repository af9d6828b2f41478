/** First words that make a reply an opt-out (supplement: Opt-outs), in any case. No rule overrides them. */
export const STOP_WORDS: ReadonlySet<string> = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT']);
