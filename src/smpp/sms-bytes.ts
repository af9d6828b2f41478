/**
 * Text ↔ short_message bytes for the data codings we send and accept. GSM-7 goes unpacked (one byte per
 * septet, 0x1B before extension characters) as SMPP carries it with data_coding 0; UCS-2 is UTF-16BE.
 */
import { GSM7_BASIC_CHARS, GSM7_ESCAPE, GSM7_EXTENSION_CHARS, encodeGsm7Unpacked } from '../common/sms';

export const DATA_CODING_GSM7 = 0x00;
export const DATA_CODING_IA5 = 0x01;
export const DATA_CODING_LATIN1 = 0x03;
export const DATA_CODING_UCS2 = 0x08;

/** Septet → character, built from the encoder so decoding can never disagree with what we send. */
const BASIC_BY_SEPTET: Array<string | undefined> = new Array(256).fill(undefined);
const EXTENSION_BY_SEPTET: Array<string | undefined> = new Array(256).fill(undefined);
for (const ch of GSM7_BASIC_CHARS) BASIC_BY_SEPTET[encodeGsm7Unpacked(ch)[0]] = ch;
for (const ch of GSM7_EXTENSION_CHARS) EXTENSION_BY_SEPTET[encodeGsm7Unpacked(ch)[1]] = ch;
/** Septets that are the same character in Latin-1 (letters, digits, space and most punctuation). */
const SAME_IN_LATIN1 = new Uint8Array(256);
BASIC_BY_SEPTET.forEach((ch, septet) => (SAME_IN_LATIN1[septet] = ch !== undefined && ch.charCodeAt(0) === septet ? 1 : 0));

/**
 * Unpacked GSM-7 to text. An escape followed by a septet with no extension character reads as the basic
 * character (3GPP TS 23.038 §6.2.1.1 fallback); bytes above 0x7F are not septets and read as '?'.
 */
export function decodeGsm7Unpacked(bytes: Buffer): string {
  // Receipt texts (id, dates, stat) are all such septets: one native decode instead of a loop.
  let same = true;
  for (let i = 0; i < bytes.length && same; i++) same = SAME_IN_LATIN1[bytes[i]] === 1;
  if (same) return bytes.toString('latin1');
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    const septet = bytes[i];
    if (septet === GSM7_ESCAPE && i + 1 < bytes.length) {
      const next = bytes[++i];
      out += EXTENSION_BY_SEPTET[next] ?? BASIC_BY_SEPTET[next] ?? '?';
      continue;
    }
    out += BASIC_BY_SEPTET[septet] ?? (septet === GSM7_ESCAPE ? '' : '?');
  }
  return out;
}

/** UTF-16BE bytes of `text` (surrogate pairs stay two code units, as UCS-2 SMS carries them). */
export function encodeUcs2(text: string): Buffer {
  return Buffer.from(text, 'utf16le').swap16();
}

/** UTF-16BE bytes to text; a trailing odd byte is ignored. */
export function decodeUcs2(bytes: Buffer): string {
  const even = Buffer.from(bytes.subarray(0, bytes.length - (bytes.length % 2)));
  return even.swap16().toString('utf16le');
}

/** short_message bytes to text by data_coding; codings we do not know read as Latin-1. */
export function decodeSmsBytes(dataCoding: number, bytes: Buffer): string {
  switch (dataCoding) {
    case DATA_CODING_GSM7:
      return decodeGsm7Unpacked(bytes);
    case DATA_CODING_UCS2:
      return decodeUcs2(bytes);
    case DATA_CODING_IA5:
      return bytes.toString('ascii');
    default:
      return bytes.toString('latin1');
  }
}
