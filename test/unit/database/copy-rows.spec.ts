import { copyField } from '../../../src/database/copy-rows';

describe(copyField.name, () => {
  it('escapes exactly the characters COPY’s text format gives a meaning: backslash, newline, carriage return, tab', () => {
    expect(copyField('a\\b\nc\rd\te')).toBe('a\\\\b\\nc\\rd\\te');
    expect(copyField('\\\\N')).toBe('\\\\\\\\N');
  });

  it('leaves every other text as it is (quotes, commas, braces, emoji, other control characters)', () => {
    for (const text of ['', 'plain', 'say "hi", {ok}', 'é😀 — done', 'bell \u0007 and vertical \u000b']) expect(copyField(text)).toBe(text);
  });

  it('writes null as \\N (a text "\\N" stays distinguishable: its backslash is escaped)', () => {
    expect(copyField(null)).toBe('\\N');
    expect(copyField('\\N')).toBe('\\\\N');
  });

  it('writes numbers and booleans as PostgreSQL reads them', () => {
    expect([copyField(0), copyField(-12), copyField(1.5), copyField(true), copyField(false)]).toEqual(['0', '-12', '1.5', 't', 'f']);
  });
});
