import { checkField, convertField, FieldSpec } from '../../../../src/common/validation/field';

describe(checkField.name, () => {
  const required: FieldSpec = { kind: 'text', required: true };

  it('reports a missing required field as `<name> is required`, treating null and "" as missing', () => {
    for (const v of [undefined, null, '']) expect(checkField('number', required, v)).toBe('number is required');
  });

  it('accepts a missing optional field', () => {
    expect(checkField('first_name', { kind: 'text' }, undefined)).toBeNull();
  });

  it('checks text type and length', () => {
    expect(checkField('first_name', { kind: 'text' }, 5)).toBe('first_name must be a string');
    expect(checkField('name', { kind: 'text', maxLength: 3 }, 'abcd')).toBe('name must be at most 3 characters');
  });

  it('accepts integers and digit strings, rejecting fractions, text and out-of-range values', () => {
    const spec: FieldSpec = { kind: 'integer', min: 1, max: 99, messages: { invalid: 'max_parts must be between 1 and 99' } };
    expect(checkField('max_parts', spec, 5)).toBeNull();
    expect(checkField('max_parts', spec, '12')).toBeNull();
    for (const bad of [0, 100, 1.5, 'x', true, [], {}]) expect(checkField('max_parts', spec, bad)).toBe('max_parts must be between 1 and 99');
  });

  it('accepts only real booleans in bodies and true/false strings in queries', () => {
    expect(checkField('enable_unicode', { kind: 'boolean' }, 'true')).toBe('enable_unicode must be a boolean');
    expect(checkField('enable_unicode', { kind: 'boolean' }, 1)).toBe('enable_unicode must be a boolean');
    expect(checkField('enable_unicode', { kind: 'boolean' }, false)).toBeNull();
    expect(checkField('flag', { kind: 'boolean', source: 'query' }, 'true')).toBeNull();
  });

  it('treats only absent and null as a missing body boolean: "" is a wrong value (strict booleans)', () => {
    const spec: FieldSpec = { kind: 'boolean' };
    for (const v of [undefined, null]) expect(checkField('shorten_urls', spec, v)).toBeNull();
    for (const v of ['', 'true', 'false', 1, 0, [], {}]) expect(checkField('shorten_urls', spec, v)).toBe('shorten_urls must be a boolean');
    expect(convertField(spec, null)).toBeUndefined();
    expect(convertField(spec, true)).toBe(true);
  });

  it.each(['a\u0000b', '\u0000', 'x\ud800', '\udc00y', '\udbff\udbff\udc00'])('refuses text PostgreSQL cannot store (%j), naming the field', (value) => {
    expect(checkField('first_name', { kind: 'text' }, value)).toBe('first_name must not contain NUL characters or unpaired surrogates');
    expect(checkField('custom_ref', { kind: 'text', source: 'query' }, value)).toBe('custom_ref must not contain NUL characters or unpaired surrogates');
  });

  it('accepts control characters PostgreSQL stores, emoji (paired surrogates) and other planes', () => {
    for (const value of ['tab\there', '\u0001\u001f\u007f', '😀 ok', '\u{10FFFF}', '\uFFFE', 'Ω≈ç√']) {
      expect(checkField('first_name', { kind: 'text' }, value)).toBeNull();
    }
  });

  it('checks enums and arrays', () => {
    expect(checkField('type', { kind: 'enum', values: ['a', 'b'] }, 'c')).toBe('type must be one of a, b');
    expect(checkField('messages', { kind: 'array', messages: { invalid: 'bad messages' } }, {})).toBe('bad messages');
  });
});

describe(convertField.name, () => {
  it('converts query integers and booleans, keeps an empty text', () => {
    expect(convertField({ kind: 'integer', source: 'query' }, '20')).toBe(20);
    expect(convertField({ kind: 'boolean', source: 'query' }, 'false')).toBe(false);
    expect(convertField({ kind: 'text' }, '')).toBe('');
    expect(convertField({ kind: 'text' }, null)).toBeUndefined();
  });
});
