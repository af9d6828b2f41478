import { gsm7Length } from '../../../../src/common/sms/gsm7';
import { DEFAULT_MAX_PARTS, analyseMessage, chooseEncoding, countParts, splitParts, type SmsEncoding } from '../../../../src/common/sms/parts';

const gsm = (n: number): string => 'a'.repeat(n);
/** Cyrillic я: one UTF-16 code unit, not GSM-7. */
const ucs = (n: number): string => 'я'.repeat(n);
const EMOJI = '😀'; // surrogate pair, 2 code units

describe(countParts.name, () => {
  it.each([
    [1, 1],
    [160, 1],
    [161, 2],
    [306, 2],
    [307, 3],
    [459, 3],
    [460, 4],
  ])('GSM-7: %i plain characters need %i part(s)', (length, parts) => {
    expect(countParts(gsm(length), 'gsm7')).toBe(parts);
  });

  it.each([2, 3, 4, 5, 10, 99])('GSM-7: exactly 153×%i septets fill that many parts and one more septet adds a part', (n) => {
    expect(countParts(gsm(153 * n), 'gsm7')).toBe(n);
    expect(countParts(gsm(153 * n + 1), 'gsm7')).toBe(n + 1);
  });

  it.each([
    [1, 1],
    [70, 1],
    [71, 2],
    [134, 2],
    [135, 3],
    [201, 3],
    [202, 4],
  ])('UCS-2: %i code units need %i part(s)', (length, parts) => {
    expect(countParts(ucs(length), 'ucs2')).toBe(parts);
  });

  it.each([2, 3, 4, 5, 10, 99])('UCS-2: exactly 67×%i code units fill that many parts and one more unit adds a part', (n) => {
    expect(countParts(ucs(67 * n), 'ucs2')).toBe(n);
    expect(countParts(ucs(67 * n + 1), 'ucs2')).toBe(n + 1);
  });

  it('GSM-7: extension characters count two septets towards the single-part limit', () => {
    expect(countParts(gsm(158) + '€', 'gsm7')).toBe(1); // 160 septets
    expect(countParts(gsm(159) + '€', 'gsm7')).toBe(2); // 161 septets
    expect(countParts('€'.repeat(80), 'gsm7')).toBe(1);
    expect(countParts('€'.repeat(81), 'gsm7')).toBe(2);
  });

  it('GSM-7: an extension character that would straddle a part edge moves wholly into the next part', () => {
    // 306 septets would be 2 parts by naive counting, but € cannot take septets 153+154.
    const text = gsm(152) + '€' + gsm(152);
    expect(gsm7Length(text)).toBe(306);
    expect(countParts(text, 'gsm7')).toBe(3);
  });

  it('GSM-7: an extension character ending exactly on a part edge stays in that part', () => {
    const text = gsm(151) + '€' + gsm(153);
    expect(gsm7Length(text)).toBe(306);
    expect(countParts(text, 'gsm7')).toBe(2);
  });

  it('UCS-2: surrogate pairs count two code units towards the single-part limit', () => {
    expect(countParts(ucs(68) + EMOJI, 'ucs2')).toBe(1); // 70 units
    expect(countParts(ucs(69) + EMOJI, 'ucs2')).toBe(2); // 71 units
    expect(countParts(EMOJI.repeat(35), 'ucs2')).toBe(1);
    expect(countParts(EMOJI.repeat(36), 'ucs2')).toBe(2);
  });

  it('UCS-2: an emoji at the 67/68 boundary moves wholly into the next part', () => {
    // 134 units would be 2 parts by naive counting, but the pair cannot take units 67+68.
    const text = ucs(66) + EMOJI + ucs(66);
    expect(text.length).toBe(134);
    expect(countParts(text, 'ucs2')).toBe(3);
  });

  it('UCS-2: an emoji ending exactly on a part edge stays in that part', () => {
    const text = ucs(65) + EMOJI + ucs(67);
    expect(text.length).toBe(134);
    expect(countParts(text, 'ucs2')).toBe(2);
  });

  it('counts the empty text as one part in either encoding', () => {
    expect(countParts('', 'gsm7')).toBe(1);
    expect(countParts('', 'ucs2')).toBe(1);
  });

  it('counts GSM-only text by code units when UCS-2 is chosen', () => {
    expect(countParts(gsm(70), 'ucs2')).toBe(1);
    expect(countParts(gsm(71), 'ucs2')).toBe(2);
    expect(countParts('€'.repeat(70), 'ucs2')).toBe(1);
  });

  it('throws a RangeError when asked to count non-GSM text as GSM-7', () => {
    expect(() => countParts('Hello ' + EMOJI, 'gsm7')).toThrow(RangeError);
    expect(() => countParts(gsm(200) + 'я', 'gsm7')).toThrow(RangeError);
  });

  it('throws a RangeError for an unknown encoding', () => {
    expect(() => countParts('x', 'latin1' as SmsEncoding)).toThrow(RangeError);
  });
});

describe(splitParts.name, () => {
  it('returns the whole text as one segment when it fits in one part', () => {
    expect(splitParts(gsm(160), 'gsm7')).toEqual([gsm(160)]);
    expect(splitParts(ucs(70), 'ucs2')).toEqual([ucs(70)]);
    expect(splitParts('', 'gsm7')).toEqual(['']);
    expect(splitParts('', 'ucs2')).toEqual(['']);
  });

  it('GSM-7: splits multipart text into 153-septet segments', () => {
    expect(splitParts(gsm(161), 'gsm7')).toEqual([gsm(153), gsm(8)]);
    expect(splitParts(gsm(307), 'gsm7')).toEqual([gsm(153), gsm(153), gsm(1)]);
  });

  it('UCS-2: splits multipart text into 67-unit segments', () => {
    expect(splitParts(ucs(71), 'ucs2')).toEqual([ucs(67), ucs(4)]);
    expect(splitParts(ucs(135), 'ucs2')).toEqual([ucs(67), ucs(67), ucs(1)]);
  });

  it('GSM-7: keeps an extension character whole, starting the next segment with it', () => {
    expect(splitParts(gsm(152) + '€' + gsm(152), 'gsm7')).toEqual([gsm(152), '€' + gsm(151), gsm(1)]);
  });

  it('UCS-2: keeps a surrogate pair whole, starting the next segment with it', () => {
    expect(splitParts(ucs(66) + EMOJI + ucs(66), 'ucs2')).toEqual([ucs(66), EMOJI + ucs(65), ucs(1)]);
  });

  it('UCS-2: a lone surrogate counts as one code unit and may fill the last slot', () => {
    const lone = '\ud83d';
    expect(splitParts(ucs(66) + lone + ucs(4), 'ucs2')).toEqual([ucs(66) + lone, ucs(4)]);
  });

  /** Deterministic PRNG so failures are reproducible. */
  function mulberry32(seed: number): () => number {
    let a = seed;
    return () => {
      a = (a + 0x6d2b79f5) | 0;
      let t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  const GSM_POOL = ['a', 'Z', '0', ' ', '@', '£', 'é', '\n', '€', '{', '}', '[', ']', '~', '|', '^', '\\', '\f'];
  const UCS_POOL = [...GSM_POOL, 'я', '中', 'ç', EMOJI, '👍🏽', '🇦🇺'];

  function randomText(rand: () => number, pool: string[], maxChars: number): string {
    const n = Math.floor(rand() * maxChars);
    let s = '';
    for (let i = 0; i < n; i++) s += pool[Math.floor(rand() * pool.length)];
    return s;
  }

  const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;
  const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

  it('GSM-7: segments re-join to the original, stay within their septet limit and match countParts', () => {
    const rand = mulberry32(1);
    for (let run = 0; run < 500; run++) {
      const text = randomText(rand, GSM_POOL, 700);
      const segments = splitParts(text, 'gsm7');
      expect(segments.join('')).toBe(text);
      expect(segments.length).toBe(countParts(text, 'gsm7'));
      const limit = segments.length === 1 ? 160 : 153;
      for (const segment of segments) expect(gsm7Length(segment)).toBeLessThanOrEqual(limit);
    }
  });

  it('UCS-2: segments re-join to the original, stay within 67 units, never split a pair and match countParts', () => {
    const rand = mulberry32(2);
    for (let run = 0; run < 500; run++) {
      const text = randomText(rand, UCS_POOL, 300);
      const segments = splitParts(text, 'ucs2');
      expect(segments.join('')).toBe(text);
      expect(segments.length).toBe(countParts(text, 'ucs2'));
      const limit = segments.length === 1 ? 70 : 67;
      for (const segment of segments) {
        expect(segment.length).toBeLessThanOrEqual(limit);
        if (segment.length > 0) {
          expect(isLowSurrogate(segment.charCodeAt(0))).toBe(false);
          expect(isHighSurrogate(segment.charCodeAt(segment.length - 1))).toBe(false);
        }
      }
    }
  });

  it('throws a RangeError when asked to split non-GSM text as GSM-7', () => {
    expect(() => splitParts(gsm(200) + 'ç', 'gsm7')).toThrow(RangeError);
  });
});

describe(chooseEncoding.name, () => {
  it('chooses GSM-7 for GSM-only text whether or not unicode is allowed', () => {
    expect(chooseEncoding('Hello @ £5 Δ', false)).toBe('gsm7');
    expect(chooseEncoding('Hello @ £5 Δ', true)).toBe('gsm7');
  });

  it('chooses GSM-7 for text with extension characters', () => {
    expect(chooseEncoding('Price €10 {incl} [gst] ~ | ^ \\', false)).toBe('gsm7');
  });

  it('chooses UCS-2 for non-GSM text when unicode is allowed', () => {
    expect(chooseEncoding('Hi ' + EMOJI, true)).toBe('ucs2');
    expect(chooseEncoding('Café ç', true)).toBe('ucs2');
  });

  it('returns null for non-GSM text when unicode is not allowed', () => {
    expect(chooseEncoding('Hi ' + EMOJI, false)).toBeNull();
    expect(chooseEncoding('It’s here', false)).toBeNull(); // curly apostrophe
  });

  it('chooses GSM-7 for the empty text', () => {
    expect(chooseEncoding('', false)).toBe('gsm7');
  });
});

describe(analyseMessage.name, () => {
  it('reports GSM-7 and its part count for GSM-only text', () => {
    expect(analyseMessage(gsm(161), false)).toEqual({ encoding: 'gsm7', parts: 2 });
    expect(analyseMessage(gsm(161), true)).toEqual({ encoding: 'gsm7', parts: 2 });
  });

  it('reports UCS-2 and its part count for non-GSM text when unicode is allowed', () => {
    expect(analyseMessage(ucs(71), true)).toEqual({ encoding: 'ucs2', parts: 2 });
    expect(analyseMessage(gsm(69) + EMOJI, true)).toEqual({ encoding: 'ucs2', parts: 2 });
  });

  it('reports unicode_required for non-GSM text when unicode is not allowed', () => {
    expect(analyseMessage(ucs(5), false)).toEqual({ error: 'unicode_required' });
  });
});

describe('DEFAULT_MAX_PARTS', () => {
  it('is 5', () => {
    expect(DEFAULT_MAX_PARTS).toBe(5);
  });
});
