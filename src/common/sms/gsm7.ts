/**
 * GSM 03.38 (3GPP TS 23.038) 7-bit default alphabet and its extension table.
 *
 * Everything here is driven by two 65536-entry lookup tables built once at
 * module load, indexed by UTF-16 code unit:
 *   - COST:   0 = not representable, 1 = basic table, 2 = extension table (escape + char)
 *   - SEPTET: the septet value in the basic or extension table
 *
 * Characters outside the BMP (surrogate pairs, e.g. emoji) have cost 0 because
 * neither surrogate half is in the tables, so they are never GSM-7.
 */

/** The escape septet that precedes every extension-table character. */
export const GSM7_ESCAPE = 0x1b;

/**
 * The basic table, index = septet value. Slot 0x1B is the escape to the
 * extension table, not a character: it is kept here so the indices line up,
 * but U+001B in user text is NOT treated as GSM-7 (sending it raw would make
 * the handset read the next septet from the extension table).
 */
const BASIC_TABLE: readonly string[] = [
  // 0x00 - 0x0F
  '@',
  '£',
  '$',
  '¥',
  'è',
  'é',
  'ù',
  'ì',
  'ò',
  'Ç',
  '\n',
  'Ø',
  'ø',
  '\r',
  'Å',
  'å',
  // 0x10 - 0x1F (0x1B = ESC, see above)
  'Δ',
  '_',
  'Φ',
  'Γ',
  'Λ',
  'Ω',
  'Π',
  'Ψ',
  'Σ',
  'Θ',
  'Ξ',
  '\u001b',
  'Æ',
  'æ',
  'ß',
  'É',
  // 0x20 - 0x2F
  ' ',
  '!',
  '"',
  '#',
  '¤',
  '%',
  '&',
  "'",
  '(',
  ')',
  '*',
  '+',
  ',',
  '-',
  '.',
  '/',
  // 0x30 - 0x3F
  '0',
  '1',
  '2',
  '3',
  '4',
  '5',
  '6',
  '7',
  '8',
  '9',
  ':',
  ';',
  '<',
  '=',
  '>',
  '?',
  // 0x40 - 0x4F
  '¡',
  'A',
  'B',
  'C',
  'D',
  'E',
  'F',
  'G',
  'H',
  'I',
  'J',
  'K',
  'L',
  'M',
  'N',
  'O',
  // 0x50 - 0x5F
  'P',
  'Q',
  'R',
  'S',
  'T',
  'U',
  'V',
  'W',
  'X',
  'Y',
  'Z',
  'Ä',
  'Ö',
  'Ñ',
  'Ü',
  '§',
  // 0x60 - 0x6F
  '¿',
  'a',
  'b',
  'c',
  'd',
  'e',
  'f',
  'g',
  'h',
  'i',
  'j',
  'k',
  'l',
  'm',
  'n',
  'o',
  // 0x70 - 0x7F
  'p',
  'q',
  'r',
  's',
  't',
  'u',
  'v',
  'w',
  'x',
  'y',
  'z',
  'ä',
  'ö',
  'ñ',
  'ü',
  'à',
];

/** The extension table: character → septet sent after the 0x1B escape. */
const EXTENSION_TABLE: ReadonlyArray<readonly [string, number]> = [
  ['\f', 0x0a], // form feed (page break)
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

/** All basic-table characters users may send (the 128 slots minus ESC). */
export const GSM7_BASIC_CHARS: readonly string[] = BASIC_TABLE.filter((_, i) => i !== GSM7_ESCAPE);

/** All extension-table characters (each costs two septets). */
export const GSM7_EXTENSION_CHARS: readonly string[] = EXTENSION_TABLE.map(([ch]) => ch);

const COST = new Uint8Array(65536);
const SEPTET = new Uint8Array(65536);

if (BASIC_TABLE.length !== 128) {
  throw new Error(`GSM-7 basic table must have 128 entries, has ${BASIC_TABLE.length}`);
}
BASIC_TABLE.forEach((ch, septet) => {
  if (septet === GSM7_ESCAPE) return;
  const code = ch.charCodeAt(0);
  COST[code] = 1;
  SEPTET[code] = septet;
});
for (const [ch, septet] of EXTENSION_TABLE) {
  const code = ch.charCodeAt(0);
  COST[code] = 2;
  SEPTET[code] = septet;
}

/**
 * Septet cost of one UTF-16 code unit: 0 = not in GSM-7, 1 = basic table,
 * 2 = extension table (escape + character).
 */
export function gsm7CharCost(charCode: number): 0 | 1 | 2 {
  return COST[charCode] as 0 | 1 | 2;
}

/** True when every character of `text` is in the GSM-7 basic or extension table. */
export function isGsm7(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    if (COST[text.charCodeAt(i)] === 0) return false;
  }
  return true;
}

/**
 * Length of `text` in septets (extension characters count 2), or -1 when the
 * text contains a character outside GSM-7. Single pass; for callers that want
 * both the check and the length.
 */
export function gsm7LengthOrNegative(text: string): number {
  let septets = 0;
  for (let i = 0; i < text.length; i++) {
    const cost = COST[text.charCodeAt(i)];
    if (cost === 0) return -1;
    septets += cost;
  }
  return septets;
}

/**
 * Length of `text` in septets: basic characters count 1, extension characters
 * (`^ { } \ [ ] ~ | €` and form feed) count 2.
 * @throws RangeError if `text` contains a character outside GSM-7.
 */
export function gsm7Length(text: string): number {
  const septets = gsm7LengthOrNegative(text);
  if (septets < 0) throw nonGsmError(text);
  return septets;
}

/**
 * Encode `text` as unpacked GSM-7: one byte per septet, with 0x1B before each
 * extension character. This is what SMPP carries with data_coding 0.
 * @throws RangeError if `text` contains a character outside GSM-7.
 */
export function encodeGsm7Unpacked(text: string): Buffer {
  const septets = gsm7LengthOrNegative(text);
  if (septets < 0) throw nonGsmError(text);
  const out = Buffer.allocUnsafe(septets);
  let pos = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (COST[code] === 2) out[pos++] = GSM7_ESCAPE;
    out[pos++] = SEPTET[code];
  }
  return out;
}

function nonGsmError(text: string): RangeError {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (COST[code] === 0) {
      const hex = code.toString(16).toUpperCase().padStart(4, '0');
      return new RangeError(`Character U+${hex} at index ${i} is not in the GSM-7 alphabet`);
    }
  }
  /* istanbul ignore next -- only called when a non-GSM character exists */
  return new RangeError('Text is not GSM-7');
}
