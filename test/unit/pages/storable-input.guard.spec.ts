import { unstorableField } from '../../../src/pages/storable-input.guard';

describe(unstorableField.name, () => {
  const text = (fields: unknown) => unstorableField(fields)?.message ?? null;

  it('names the first field whose value, or one of whose repeated values, holds a NUL or an unpaired surrogate', () => {
    expect(text({ status: 'sent', custom_ref: 'a\u0000b' })).toBe('custom_ref must not contain NUL characters or unpaired surrogates');
    expect(text({ permissions: ['send', 'x\ud800'] })).toBe('permissions must not contain NUL characters or unpaired surrogates');
  });

  it('refuses a field name it could not name without saying which', () => {
    expect(text({ 'a\u0000': '1' })).toBe('Request must not contain NUL characters or unpaired surrogates');
  });

  it('checks a file’s content and name like any field: a `:filename` beside a field exempts nothing', () => {
    expect(text({ file: 'number\n04123\u0000', 'file:filename': 'contacts.csv' })).toBe('file must not contain NUL characters or unpaired surrogates');
    expect(text({ custom_ref: 'a\u0000b', 'custom_ref:filename': 'x' })).toBe('custom_ref must not contain NUL characters or unpaired surrogates');
    expect(text({ file: 'number', 'file:filename': 'a\u0000.csv' })).toBe('file:filename must not contain NUL characters or unpaired surrogates');
  });

  it('accepts everything else, and no fields at all', () => {
    expect(text({ q: 'Zoë 😀', list: ['1', '2'] })).toBeNull();
    expect(text(undefined)).toBeNull();
  });
});
