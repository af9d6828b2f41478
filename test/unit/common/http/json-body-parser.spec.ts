import { MAX_JSON_DEPTH, nestingExceeds, parseJsonBody } from '../../../../src/common/http/json-body-parser';

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

describe('JSON nesting limit', () => {
  const nested = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;

  it(`accepts a body nested exactly ${MAX_JSON_DEPTH} levels deep`, () => {
    expect(parseJsonBody(nested(MAX_JSON_DEPTH))).toBeDefined();
  });

  it('refuses one level more with a clear text, objects and arrays alike', () => {
    const text = `Request body is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`;
    expect(() => parseJsonBody(nested(MAX_JSON_DEPTH + 1))).toThrow(new Error(text));
    expect(() => parseJsonBody(`{"a":${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}}`)).toThrow(new Error(text));
  });

  it('refuses 2000 levels (about 4 KB) and a 1 MB one without touching the stack', () => {
    expect(() => parseJsonBody(`{"a":${'['.repeat(2000)}${']'.repeat(2000)}}`)).toThrow(/nested too deeply/);
    expect(() => parseJsonBody('['.repeat(1_000_000))).toThrow(/nested too deeply/);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const inString = JSON.stringify({ text: `\\"${'['.repeat(100)}{{{` });
    expect(nestingExceeds(inString, 2)).toBe(false);
    expect(parseJsonBody(inString)).toEqual({ text: `\\"${'['.repeat(100)}{{{` });
  });

  it('counts depth, not the number of brackets', () => {
    expect(nestingExceeds(`[${'[],'.repeat(10_000)}[]]`, 2)).toBe(false);
    expect(nestingExceeds('[[[]]]', 2)).toBe(true);
  });
});
