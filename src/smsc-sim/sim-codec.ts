/**
 * The two PDUs the simulator sends for every message, encoded straight into one Buffer each: the
 * submit_sm_resp that accepts a submit_sm, and the deliver_sm carrying its receipt. Byte for byte what the
 * `smpp` package writes for the same fields (a unit test compares them), without its PDU objects,
 * per-field filters and GSM coder lookups, which were most of the simulator's CPU in a campaign (the
 * benchmarks run it on the same two cores as the gateway they measure).
 */
import { DELIVER_SM, HEADER_LENGTH, SUBMIT_SM_RESP } from '../dispatch/carriers/smpp/pdu-reader';

const TLV_RECEIPTED_MESSAGE_ID = 0x001e;
const TLV_MESSAGE_STATE = 0x0427;
const ESM_CLASS_DELIVERY_RECEIPT = 0x04;

/** An accepted submit_sm's resp (SMPP 3.4 §4.4.2): the header and the SMSC's message id. */
export function encodeSubmitSmResp(sequence: number, messageId: string): Buffer {
  const idLength = Buffer.byteLength(messageId, 'ascii');
  const length = HEADER_LENGTH + idLength + 1;
  const pdu = Buffer.allocUnsafe(length);
  pdu.writeUInt32BE(length, 0);
  pdu.writeUInt32BE(SUBMIT_SM_RESP, 4);
  pdu.writeUInt32BE(0, 8);
  pdu.writeUInt32BE(sequence, 12);
  pdu.write(messageId, HEADER_LENGTH, 'ascii');
  pdu[length - 1] = 0;
  return pdu;
}

/** A receipt's deliver_sm, from the handset back to the sender of the submit it reports on. */
export interface ReceiptDeliverSm {
  sourceAddrTon: number;
  sourceAddrNpi: number;
  sourceAddr: string;
  destAddrTon: number;
  destAddrNpi: number;
  destinationAddr: string;
  /** The receipt text, as GSM-7 octets (data_coding 0). */
  shortMessage: Buffer;
  receiptedMessageId: string;
  messageState: number;
}

/**
 * A receipt's deliver_sm (SMPP 3.4 §4.6.1, esm_class 0x04): every field not set here at its default (empty
 * service_type, schedule and validity, protocol_id, priority, registered_delivery, replace_if_present,
 * data_coding and sm_default_msg_id 0), then the receipted_message_id and message_state TLVs.
 */
export function encodeReceiptDeliverSm(sequence: number, r: ReceiptDeliverSm): Buffer {
  const sourceLength = Buffer.byteLength(r.sourceAddr, 'ascii');
  const destinationLength = Buffer.byteLength(r.destinationAddr, 'ascii');
  const idLength = Buffer.byteLength(r.receiptedMessageId, 'ascii');
  if (r.shortMessage.length > 254) throw new RangeError(`short_message of ${r.shortMessage.length} octets; at most 254 fit sm_length`);
  // service_type(1) ton npi source\0 ton npi destination\0 esm protocol priority schedule(1) validity(1) registered replace coding default sm_length message
  const mandatory = 1 + 2 + sourceLength + 1 + 2 + destinationLength + 1 + 3 + 1 + 1 + 5 + r.shortMessage.length;
  const tlvs = 4 + idLength + 1 + 4 + 1;
  const length = HEADER_LENGTH + mandatory + tlvs;
  const pdu = Buffer.allocUnsafe(length);
  pdu.writeUInt32BE(length, 0);
  pdu.writeUInt32BE(DELIVER_SM, 4);
  pdu.writeUInt32BE(0, 8);
  pdu.writeUInt32BE(sequence, 12);
  let at = HEADER_LENGTH;
  pdu[at++] = 0; // service_type ""
  pdu[at++] = r.sourceAddrTon;
  pdu[at++] = r.sourceAddrNpi;
  at += pdu.write(r.sourceAddr, at, 'ascii');
  pdu[at++] = 0;
  pdu[at++] = r.destAddrTon;
  pdu[at++] = r.destAddrNpi;
  at += pdu.write(r.destinationAddr, at, 'ascii');
  pdu[at++] = 0;
  pdu[at++] = ESM_CLASS_DELIVERY_RECEIPT;
  pdu[at++] = 0; // protocol_id
  pdu[at++] = 0; // priority_flag
  pdu[at++] = 0; // schedule_delivery_time ""
  pdu[at++] = 0; // validity_period ""
  pdu[at++] = 0; // registered_delivery
  pdu[at++] = 0; // replace_if_present_flag
  pdu[at++] = 0; // data_coding: GSM-7 (SMSC default alphabet)
  pdu[at++] = 0; // sm_default_msg_id
  pdu[at++] = r.shortMessage.length;
  at += r.shortMessage.copy(pdu, at);
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
