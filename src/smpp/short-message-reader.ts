/**
 * Reads submit_sm / deliver_sm bodies as octets: the simulator records what was on the wire, and the
 * carrier decodes inbound text with the same GSM-7 tables it encodes with (a generic decoder would read
 * short_message through its own table and keep no raw bytes).
 */
import { textUntilNul } from './pdu';

const TLV_MESSAGE_PAYLOAD = 0x0424;
const TLV_RECEIPTED_MESSAGE_ID = 0x001e;
const TLV_MESSAGE_STATE = 0x0427;
const ESM_CLASS_UDHI = 0x40;

export interface ShortMessageFields {
  sourceAddr: string;
  destinationAddr: string;
  esmClass: number;
  dataCoding: number;
  registeredDelivery: number;
  /** short_message octets as sent, UDH included. */
  shortMessage: Buffer;
  /** message_payload TLV octets, or null when absent. */
  messagePayload: Buffer | null;
  /** receipted_message_id TLV (a receipt's SMSC message id), or null when absent. */
  receiptedMessageId: string | null;
  /** message_state TLV, or null when absent. */
  messageState: number | null;
}

/**
 * Reads the mandatory parameters of a submit_sm or deliver_sm body (same layout, SMPP 3.4 §4.4.1/§4.6.1)
 * and the TLVs we use (message_payload, receipted_message_id, message_state). Throws RangeError on a
 * truncated body.
 */
export function parseShortMessageBody(body: Buffer): ShortMessageFields {
  let offset = 12; // command_id, command_status, sequence_number
  const byte = (): number => {
    if (offset >= body.length) throw new RangeError('PDU body truncated');
    return body[offset++];
  };
  const cstring = (): string => {
    const end = body.indexOf(0, offset);
    if (end < 0) throw new RangeError('PDU body truncated in a C-octet string');
    const value = end === offset ? '' : body.toString('latin1', offset, end);
    offset = end + 1;
    return value;
  };
  cstring(); // service_type
  offset += 2; // source_addr_ton, source_addr_npi
  const sourceAddr = cstring();
  offset += 2; // dest_addr_ton, dest_addr_npi
  const destinationAddr = cstring();
  const esmClass = byte();
  offset += 2; // protocol_id, priority_flag
  cstring(); // schedule_delivery_time
  cstring(); // validity_period
  const registeredDelivery = byte();
  byte(); // replace_if_present_flag
  const dataCoding = byte();
  byte(); // sm_default_msg_id
  const smLength = byte();
  if (offset + smLength > body.length) throw new RangeError('PDU body truncated in short_message');
  const shortMessage = body.subarray(offset, offset + smLength);
  offset += smLength;
  let messagePayload: Buffer | null = null;
  let receiptedMessageId: string | null = null;
  let messageState: number | null = null;
  while (offset + 4 <= body.length) {
    const tag = body.readUInt16BE(offset);
    const length = body.readUInt16BE(offset + 2);
    offset += 4;
    if (tag === TLV_MESSAGE_PAYLOAD) messagePayload = body.subarray(offset, offset + length);
    else if (tag === TLV_RECEIPTED_MESSAGE_ID) receiptedMessageId = textUntilNul(body, offset, Math.min(body.length, offset + length));
    else if (tag === TLV_MESSAGE_STATE && length >= 1 && offset < body.length) messageState = body[offset];
    offset += length;
  }
  return { sourceAddr, destinationAddr, esmClass, dataCoding, registeredDelivery, shortMessage, messagePayload, receiptedMessageId, messageState };
}

/** The source_addr_ton of a submit_sm or deliver_sm body (it follows service_type). Throws RangeError on a truncated body. */
export function sourceAddrTonOf(body: Buffer): number {
  const end = body.indexOf(0, 12);
  if (end < 0 || end + 1 >= body.length) throw new RangeError('PDU body truncated before source_addr_ton');
  return body[end + 1];
}

/** Splits the user data header off when esm_class has UDHI set (first octet is the UDH length). */
export function splitUserData(esmClass: number, data: Buffer): { udh: Buffer | null; payload: Buffer } {
  if ((esmClass & ESM_CLASS_UDHI) === 0 || data.length === 0) return { udh: null, payload: data };
  const udhLength = data[0] + 1;
  return { udh: data.subarray(0, udhLength), payload: data.subarray(udhLength) };
}
