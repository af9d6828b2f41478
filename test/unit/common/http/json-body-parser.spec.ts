import { parseJsonBody } from '../../../../src/common/http/json-body-parser';

describe(parseJsonBody.name, () => {
  it('returns the object', () => {
    expect(parseJsonBody('{"a":[1,{"b":null}]}')).toEqual({ a: [1, { b: null }] });
  });

  it('treats an empty or blank body as no body', () => {
    expect(parseJsonBody('')).toBeUndefined();
    expect(parseJsonBody('  \n')).toBeUndefined();
  });

  it('rejects invalid JSON with the exact text', () => {
    expect(() => parseJsonBody('{a:1}')).toThrow(new Error('Request body is not valid JSON'));
  });

  it.each(['[]', '1', '"s"', 'null', 'false'])('rejects the non-object %s', (text) => {
    expect(() => parseJsonBody(text)).toThrow(new Error('Request body must be a JSON object'));
  });

  it('removes prototype-poisoning keys', () => {
    const parsed = parseJsonBody('{"__proto__":{"x":1},"constructor":{"prototype":{"y":2}},"ok":true}')!;
    expect(parsed).toEqual({ ok: true });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});
