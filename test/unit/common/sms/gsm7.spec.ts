import { encodeGsm7Unpacked, gsm7CharCost, gsm7Length, isGsm7 } from '../../../../src/common/sms/gsm7';

/**
 * GSM 03.38 default alphabet written out independently of the module under
 * test: [character, septet]. Slot 0x1B (escape) is not a character.
 */
const BASIC: ReadonlyArray<readonly [string, number]> = [
  ['@', 0x00],
  ['£', 0x01],
  ['$', 0x02],
  ['¥', 0x03],
  ['è', 0x04],
  ['é', 0x05],
  ['ù', 0x06],
  ['ì', 0x07],
  ['ò', 0x08],
  ['Ç', 0x09],
  ['\n', 0x0a],
  ['Ø', 0x0b],
  ['ø', 0x0c],
  ['\r', 0x0d],
  ['Å', 0x0e],
  ['å', 0x0f],
  ['Δ', 0x10],
  ['_', 0x11],
  ['Φ', 0x12],
  ['Γ', 0x13],
  ['Λ', 0x14],
  ['Ω', 0x15],
  ['Π', 0x16],
  ['Ψ', 0x17],
  ['Σ', 0x18],
  ['Θ', 0x19],
  ['Ξ', 0x1a],
  ['Æ', 0x1c],
  ['æ', 0x1d],
  ['ß', 0x1e],
  ['É', 0x1f],
  [' ', 0x20],
  ['!', 0x21],
  ['"', 0x22],
  ['#', 0x23],
  ['¤', 0x24],
  ['%', 0x25],
  ['&', 0x26],
  ["'", 0x27],
  ['(', 0x28],
  [')', 0x29],
  ['*', 0x2a],
  ['+', 0x2b],
  [',', 0x2c],
  ['-', 0x2d],
  ['.', 0x2e],
  ['/', 0x2f],
  [':', 0x3a],
  [';', 0x3b],
  ['<', 0x3c],
  ['=', 0x3d],
  ['>', 0x3e],
  ['?', 0x3f],
  ['¡', 0x40],
  ['Ä', 0x5b],
  ['Ö', 0x5c],
  ['Ñ', 0x5d],
  ['Ü', 0x5e],
  ['§', 0x5f],
  ['¿', 0x60],
  ['ä', 0x7b],
  ['ö', 0x7c],
  ['ñ', 0x7d],
  ['ü', 0x7e],
  ['à', 0x7f],
  ...Array.from({ length: 10 }, (_, i) => [String(i), 0x30 + i] as const),
  ...Array.from({ length: 26 }, (_, i) => [String.fromCharCode(65 + i), 0x41 + i] as const),
  ...Array.from({ length: 26 }, (_, i) => [String.fromCharCode(97 + i), 0x61 + i] as const),
];

const EXTENSION: ReadonlyArray<readonly [string, number]> = [
  ['\f', 0x0a],
  ['^', 0x14],
  ['{', 0x28],
  ['}', 0x29],
  ['\\', 0x2f],
  ['[', 0x3c],
  ['~', 0x3d],
  [']', 0x3e],
  ['|', 0x40],
  ['€', 0x65],
];

/** Characters people type that look close to GSM but are not in it. */
const NOT_GSM = ['ç', 'á', 'Á', 'ê', 'ô', '`', '¢', '’', '“', '…', '\t', '\u001b', '\u2126' /* ohm sign, not Greek omega */, '😀', 'я', '中'];

describe(isGsm7.name, () => {
  it('has all 127 basic-table characters (the 128 slots minus escape) in the test table', () => {
    expect(new Set(BASIC.map(([ch]) => ch)).size).toBe(127);
  });

  it.each(BASIC.map(([ch, septet]) => [JSON.stringify(ch), ch, septet] as const))('accepts basic-table character %s', (_label, ch) => {
    expect(isGsm7(ch)).toBe(true);
    expect(isGsm7(`a${ch}b`)).toBe(true);
  });

  it.each(EXTENSION.map(([ch]) => [JSON.stringify(ch), ch] as const))('accepts extension-table character %s', (_label, ch) => {
    expect(isGsm7(ch)).toBe(true);
  });

  it.each(NOT_GSM.map((ch) => [JSON.stringify(ch), ch] as const))('rejects non-GSM character %s', (_label, ch) => {
    expect(isGsm7(ch)).toBe(false);
    expect(isGsm7(`Hello ${ch} world`)).toBe(false);
  });

  it('accepts the empty text', () => {
    expect(isGsm7('')).toBe(true);
  });

  it('accepts exactly the basic and extension characters among all BMP code units', () => {
    const expected = new Set([...BASIC, ...EXTENSION].map(([ch]) => ch.charCodeAt(0)));
    const accepted: number[] = [];
    for (let code = 0; code < 0x10000; code++) {
      if (isGsm7(String.fromCharCode(code))) accepted.push(code);
    }
    expect(new Set(accepted)).toEqual(expected);
  });
});

describe(gsm7CharCost.name, () => {
  it('is 1 for basic characters, 2 for extension characters and 0 otherwise', () => {
    expect(gsm7CharCost('A'.charCodeAt(0))).toBe(1);
    expect(gsm7CharCost('€'.charCodeAt(0))).toBe(2);
    expect(gsm7CharCost('\f'.charCodeAt(0))).toBe(2);
    expect(gsm7CharCost('ç'.charCodeAt(0))).toBe(0);
    expect(gsm7CharCost(0x1b)).toBe(0);
  });
});

describe(gsm7Length.name, () => {
  it('counts one septet per basic character', () => {
    expect(gsm7Length('Hello @ £5 Δ')).toBe(12);
  });

  it.each(EXTENSION.map(([ch]) => [JSON.stringify(ch), ch] as const))('counts extension character %s as two septets', (_label, ch) => {
    expect(gsm7Length(ch)).toBe(2);
    expect(gsm7Length(`ab${ch}c`)).toBe(5);
  });

  it('counts the empty text as zero septets', () => {
    expect(gsm7Length('')).toBe(0);
  });

  it('throws a RangeError naming the first non-GSM character', () => {
    expect(() => gsm7Length('abç')).toThrow(RangeError);
    expect(() => gsm7Length('abç')).toThrow('U+00E7 at index 2');
  });
});

describe(encodeGsm7Unpacked.name, () => {
  it('encodes @ as 0x00, £ as 0x01, A as 0x41 and € as escape 0x1B then 0x65', () => {
    expect([...encodeGsm7Unpacked('@')]).toEqual([0x00]);
    expect([...encodeGsm7Unpacked('£')]).toEqual([0x01]);
    expect([...encodeGsm7Unpacked('A')]).toEqual([0x41]);
    expect([...encodeGsm7Unpacked('€')]).toEqual([0x1b, 0x65]);
  });

  it('encodes every basic character to its table septet', () => {
    const text = BASIC.map(([ch]) => ch).join('');
    expect([...encodeGsm7Unpacked(text)]).toEqual(BASIC.map(([, septet]) => septet));
  });

  it('encodes every extension character as 0x1B followed by its table septet', () => {
    const text = EXTENSION.map(([ch]) => ch).join('');
    expect([...encodeGsm7Unpacked(text)]).toEqual(EXTENSION.flatMap(([, septet]) => [0x1b, septet]));
  });

  it('produces one byte per septet for mixed text', () => {
    const text = 'Pay €5 {now}';
    const bytes = encodeGsm7Unpacked(text);
    expect(bytes.length).toBe(gsm7Length(text));
    expect([...bytes]).toEqual([0x50, 0x61, 0x79, 0x20, 0x1b, 0x65, 0x35, 0x20, 0x1b, 0x28, 0x6e, 0x6f, 0x77, 0x1b, 0x29]);
  });

  it('encodes the empty text as an empty buffer', () => {
    expect(encodeGsm7Unpacked('').length).toBe(0);
  });

  it('throws a RangeError for text with a non-GSM character', () => {
    expect(() => encodeGsm7Unpacked('Hi 😀')).toThrow(RangeError);
  });
});
