import { builtInFor } from '../../../src/keywords/built-in-keywords';
import { firstWordOf, matchesPattern, normaliseReply, parseKeyword, ruleMatches } from '../../../src/keywords/keyword-text';

describe('keyword text', () => {
  describe(normaliseReply.name, () => {
    it.each([
      ['join', 'JOIN'],
      ['  Join!  ', 'JOIN'],
      ['yes,   please\n', 'YES, PLEASE'],
      ['"WIN a prize"', 'WIN A PRIZE'],
      ['!!!', ''],
    ])('reads %j as %j', (text, expected) => expect(normaliseReply(text)).toBe(expected));
  });

  describe(firstWordOf.name, () => {
    it('drops the first word’s trailing punctuation', () => expect(firstWordOf('YES, PLEASE')).toBe('YES'));
    it('is the whole text of one word', () => expect(firstWordOf('HELP')).toBe('HELP'));
  });

  describe(parseKeyword.name, () => {
    it.each([
      ['join', 'exact', 'JOIN'],
      [' red  wine ', 'exact', 'RED WINE'],
      ['yes', 'first_word', 'YES'],
      ['win*', 'pattern', 'WIN*'],
      ['b?t', 'pattern', 'B?T'],
    ] as const)('accepts %j as %s: %j', (raw, match, expected) => expect(parseKeyword(raw, match)).toBe(expected));

    it.each([
      ['', 'exact'],
      ['   ', 'exact'],
      ['win*', 'exact'],
      ['two words', 'first_word'],
      ['*', 'pattern'],
      ['*?*', 'pattern'],
      ['a.*b', 'pattern'],
      ['50%', 'exact'],
      ['under_score', 'exact'],
      ['x'.repeat(41), 'exact'],
      ['café', 'exact'],
    ] as const)('refuses %j as %s', (raw, match) => expect(parseKeyword(raw, match)).toBeNull());
  });

  describe(matchesPattern.name, () => {
    it.each([
      ['WIN*', 'WIN A PRIZE', true],
      ['WIN*', 'WIN', true],
      ['WIN*', 'I WIN', false],
      ['*PIZZA*', 'ONE PIZZA PLEASE', true],
      ['B?T', 'BAT', true],
      ['B?T', 'BOAT', false],
      ['A*B*C', 'AXXBYYC', true],
      ['A*B*C', 'AXXBYY', false],
      ['**', 'ANYTHING', true],
    ])('%s against %j is %s', (pattern, text, expected) => expect(matchesPattern(pattern, text)).toBe(expected));

    it('answers a pattern built to backtrack on a long reply (exponential backtracking would never return)', () => {
      expect(matchesPattern('*A*A*A*A*A*A*A*A*A*A*B', 'A'.repeat(5000))).toBe(false);
    });
  });

  describe(ruleMatches.name, () => {
    it('matches exact on the whole reply, first_word on its first word, pattern on the whole reply', () => {
      expect(ruleMatches({ match: 'exact', keyword: 'JOIN' }, 'JOIN')).toBe(true);
      expect(ruleMatches({ match: 'exact', keyword: 'JOIN' }, 'JOIN NOW')).toBe(false);
      expect(ruleMatches({ match: 'first_word', keyword: 'JOIN' }, 'JOIN NOW')).toBe(true);
      expect(ruleMatches({ match: 'first_word', keyword: 'JOIN' }, 'PLEASE JOIN')).toBe(false);
      expect(ruleMatches({ match: 'pattern', keyword: '*JOIN*' }, 'PLEASE JOIN')).toBe(true);
    });
  });

  describe(builtInFor.name, () => {
    it('answers START and UNSTOP by opting back in with a confirmation naming the business', () => {
      for (const word of ['START', 'UNSTOP PLEASE']) {
        expect(builtInFor(word, 'Harbour Bake')).toEqual({
          ruleId: null,
          keyword: 'START',
          reply: 'Harbour Bake: you are subscribed again. Reply STOP to opt out.',
          addToListId: null,
          removeFromListId: null,
          optOut: false,
          optIn: true,
        });
      }
    });

    it('answers HELP and INFO with the business name and how to opt out', () => {
      expect(builtInFor('INFO', 'Harbour Bake')).toMatchObject({ keyword: 'HELP', optIn: false, reply: expect.stringContaining('Harbour Bake: ') });
      expect(builtInFor('HELP', 'Harbour Bake')?.reply).toContain('Reply STOP to opt out');
    });

    it('answers nothing else', () => {
      expect(builtInFor('STARTING', 'x')).toBeNull();
      expect(builtInFor('I NEED HELP', 'x')).toBeNull();
    });
  });
});
