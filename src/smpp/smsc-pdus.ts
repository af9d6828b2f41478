/**
 * The PDUs an SMSC sends an ESME about its messages, encoded straight into one Buffer each: the
 * submit_sm_resp that accepts a submit_sm, the deliver_sm carrying a receipt, and the deliver_sm of a
 * mobile-originated message. Byte for byte what the `smpp` package writes for the same fields (unit tests
 * compare them); the simulator sends the first two for every message, on the same two cores as the
 * gateway the benchmarks measure.
 */
import { DELIVER_SM, SUBMIT_SM_RESP } from './commands';
import { HEADER_LENGTH, writeHeader } from './pdu';
import { shortMessageBodyLength, writeShortMessageBody } from './short-message';
import type { ShortMessageBody } from './short-message';

const TLV_RECEIPTED_MESSAGE_ID = 0x001e;
const TLV_MESSAGE_STATE = 0x0427;
const TLV_MESSAGE_PAYLOAD = 0x0424;
const ESM_CLASS_DELIVERY_RECEIPT = 0x04;

/** An accepted submit_sm's resp (SMPP 3.4 §4.4.2): the header and the SMSC's message id. */
export function encodeSubmitSmResp(sequence: number, messageId: string): Buffer {
  const pdu = Buffer.allocUnsafe(HEADER_LENGTH + Buffer.byteLength(messageId, 'ascii') + 1);
  writeHeader(pdu, SUBMIT_SM_RESP, 0, sequence);
  pdu.write(messageId, HEADER_LENGTH, 'ascii');
  pdu[pdu.length - 1] = 0;
  return pdu;
}

/**
 * A receipt's deliver_sm, from the handset back to the sender of the submit it reports on; its
 * short_message is the receipt text as GSM-7 octets.
 */
export interface ReceiptDeliverSm extends Omit<ShortMessageBody, 'esmClass' | 'registeredDelivery' | 'dataCoding'> {
  receiptedMessageId: string;
  messageState: number;
}

/**
 * A receipt's deliver_sm (SMPP 3.4 §4.6.1, esm_class 0x04, registered_delivery and data_coding 0), then the
 * receipted_message_id and message_state TLVs.
 */
export function encodeReceiptDeliverSm(sequence: number, r: ReceiptDeliverSm): Buffer {
  const body = { ...r, esmClass: ESM_CLASS_DELIVERY_RECEIPT, registeredDelivery: 0, dataCoding: 0 };
  const idLength = Buffer.byteLength(r.receiptedMessageId, 'ascii');
  const pdu = Buffer.allocUnsafe(HEADER_LENGTH + shortMessageBodyLength(body) + 4 + idLength + 1 + 4 + 1);
  writeHeader(pdu, DELIVER_SM, 0, sequence);
  let at = writeShortMessageBody(pdu, HEADER_LENGTH, body);
  pdu.writeUInt16BE(TLV_RECEIPTED_MESSAGE_ID, at);
  pdu.writeUInt16BE(idLength + 1, at + 2);
  at += 4;
  at += pdu.write(r.receiptedMessageId, at, 'ascii');
  pdu[at++] = 0;
  pdu.writeUInt16BE(TLV_MESSAGE_STATE, at);
  pdu.writeUInt16BE(1, at + 2);
  pdu[at + 4] = r.messageState;
  return pdu;
}

/** A mobile-originated message's deliver_sm: its text in short_message, or in message_payload when `payload` is set (short_message then empty). */
export interface MoDeliverSm extends Omit<ShortMessageBody, 'esmClass' | 'registeredDelivery'> {
  messagePayload: Buffer | null;
}

/** A mobile-originated deliver_sm (SMPP 3.4 §4.6.1, esm_class 0), with the message_payload TLV when given. */
export function encodeMoDeliverSm(sequence: number, mo: MoDeliverSm): Buffer {
  const body = { ...mo, esmClass: 0, registeredDelivery: 0 };
  const payload = mo.messagePayload;
  const pdu = Buffer.allocUnsafe(HEADER_LENGTH + shortMessageBodyLength(body) + (payload ? 4 + payload.length : 0));
  writeHeader(pdu, DELIVER_SM, 0, sequence);
  const at = writeShortMessageBody(pdu, HEADER_LENGTH, body);
  if (payload) {
    pdu.writeUInt16BE(TLV_MESSAGE_PAYLOAD, at);
    pdu.writeUInt16BE(payload.length, at + 2);
    payload.copy(pdu, at + 4);
  }
  return pdu;
}
