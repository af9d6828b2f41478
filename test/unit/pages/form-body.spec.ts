import { formList, formText, parseFormBody } from '../../../src/pages/form-body';

describe(parseFormBody.name, () => {
  it('parses a urlencoded form, repeated fields into lists', () => {
    expect(parseFormBody('application/x-www-form-urlencoded; charset=UTF-8', 'a=1&b=x+y&c=%26&p=one&p=two')).toEqual({ a: '1', b: 'x y', c: '&', p: ['one', 'two'] });
  });

  it('treats an empty body as no body', () => {
    expect(parseFormBody('application/x-www-form-urlencoded', '')).toBeUndefined();
  });

  it('refuses any other content type', () => {
    expect(() => parseFormBody('application/json', '{"a":1}')).toThrow('Forms must be sent as application/x-www-form-urlencoded');
    expect(() => parseFormBody(undefined, 'a=1')).toThrow('Forms must be sent as application/x-www-form-urlencoded');
  });

  it('refuses a form over 64 KB', () => {
    expect(() => parseFormBody('application/x-www-form-urlencoded', `a=${'x'.repeat(64 * 1024)}`)).toThrow('Request body is too large');
  });

  it('drops keys that could reach a prototype', () => {
    const form = parseFormBody('application/x-www-form-urlencoded', '__proto__=x&constructor=y&prototype=z&ok=1')!;
    expect(Object.keys(form)).toEqual(['ok']);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

describe('form field readers', () => {
  const form = { name: '  Ada  ', twice: ['first', ' last '], p: 'one' };
  it('formText trims, takes the last of repeats, and answers "" when absent', () => {
    expect(formText(form, 'name')).toBe('Ada');
    expect(formText(form, 'twice')).toBe('last');
    expect(formText(form, 'missing')).toBe('');
    expect(formText(undefined, 'name')).toBe('');
    expect(formText(form, 'toString')).toBe('');
  });

  it('formList answers every value', () => {
    expect(formList(form, 'twice')).toEqual(['first', ' last ']);
    expect(formList(form, 'p')).toEqual(['one']);
    expect(formList(form, 'missing')).toEqual([]);
  });
});
