/**
 * One OutboundMessage → the submit_sm parameters of each of its parts.
 *
 * Parts come from splitParts (153 GSM-7 septets / 67 UCS-2 units per part of a long message, extension
 * characters and surrogate pairs never split). A long message carries in every part the 8-bit-reference
 * concatenation UDH (3GPP TS 23.040 §9.2.3.24.1: 05 00 03 ref total seq) with esm_class UDHI (0x40);
 * GSM-7 goes as data_coding 0 unpacked, UCS-2 as data_coding 8 UTF-16BE. Every part asks for a receipt.
 */
import { encodeGsm7Unpacked, splitParts } from '../../../../common/sms';
import type { OutboundMessage } from '../carrier';
import { NPI_ISDN, sourceAddressing, TON_INTERNATIONAL } from '../../../../smpp/addressing';
import type { SubmitSmParams } from '../../../../smpp/short-message';
import { DATA_CODING_GSM7, DATA_CODING_UCS2, encodeUcs2 } from '../../../../smpp/sms-bytes';

export const ESM_CLASS_DEFAULT = 0x00;
export const ESM_CLASS_UDHI = 0x40;
export const REGISTERED_DELIVERY_FINAL = 0x01;

export interface EncodedPart {
  partNumber: number;
  totalParts: number;
  params: SubmitSmParams;
}

/** 8-bit concatenation UDH: UDHL 5, IEI 0x00, IEDL 3, reference, total parts, this part (1-based). */
export function concatenationUdh(ref: number, total: number, seq: number): Buffer {
  return Buffer.from([0x05, 0x00, 0x03, ref & 0xff, total, seq]);
}

/**
 * The parts of `message`, with `ref` as the concatenation reference when it has more than one.
 * @throws RangeError when the text does not fit the encoding (non-GSM text as 'gsm7') or needs over 255 parts.
 */
export function encodeParts(message: OutboundMessage, ref: number): EncodedPart[] {
  const texts = splitParts(message.text, message.encoding);
  const total = texts.length;
  if (total > 255) throw new RangeError(`Message needs ${total} parts; concatenation allows at most 255`);
  const source = sourceAddressing(message.from);
  const dataCoding = message.encoding === 'ucs2' ? DATA_CODING_UCS2 : DATA_CODING_GSM7;
  return texts.map((text, i) => {
    const body = message.encoding === 'ucs2' ? encodeUcs2(text) : encodeGsm7Unpacked(text);
    const multipart = total > 1;
    return {
      partNumber: i + 1,
      totalParts: total,
      params: {
        source_addr_ton: source.ton,
        source_addr_npi: source.npi,
        source_addr: message.from,
        dest_addr_ton: TON_INTERNATIONAL,
        dest_addr_npi: NPI_ISDN,
        destination_addr: message.to,
        esm_class: multipart ? ESM_CLASS_UDHI : ESM_CLASS_DEFAULT,
        registered_delivery: REGISTERED_DELIVERY_FINAL,
        data_coding: dataCoding,
        short_message: multipart ? Buffer.concat([concatenationUdh(ref, total, i + 1), body]) : body,
      },
    };
  });
}
