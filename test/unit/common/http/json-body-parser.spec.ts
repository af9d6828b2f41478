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

describe('JSON nesting scan against a char-by-char reference', () => {
  /** The plain scan: inside a string, a backslash skips the next char; a quote closes it. */
  function reference(text: string, max: number): boolean {
    let depth = 0;
    let inString = false;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === '\\') i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{' || c === '[') {
        if (++depth > max) return true;
      } else if (c === '}' || c === ']') depth--;
    }
    return false;
  }

  it('agrees on 20000 random texts of quotes, backslashes and brackets', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const alphabet = ['"', '\\', '{', '}', '[', ']', 'a', ':', ','];
    const disagreements: Array<[string, number]> = [];
    for (let n = 0; n < 20_000; n++) {
      const text = Array.from({ length: Math.floor(next() * 40) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
      for (const max of [0, 1, 3]) if (nestingExceeds(text, max) !== reference(text, max)) disagreements.push([text, max]);
    }
    expect(disagreements).toEqual([]);
  });

  it('ends a string only at a quote after an even run of backslashes', () => {
    expect(nestingExceeds('["\\\\"[[]]', 2)).toBe(true);
    expect(nestingExceeds('["\\\\\\"[[]]"]', 2)).toBe(false);
    expect(nestingExceeds('"\\', 0)).toBe(false);
  });
});
