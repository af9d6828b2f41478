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
