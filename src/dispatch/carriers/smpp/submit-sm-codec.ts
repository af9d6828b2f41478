import { HEADER_LENGTH, SUBMIT_SM } from './pdu-reader';
import type { SubmitSmParams } from './submit-parts';

/**
 * Encodes a submit_sm straight into one Buffer (SMPP 3.4 §4.4.1): header, then the mandatory
 * parameters with every field we do not set at its default (empty service_type, schedule and validity,
 * protocol_id, priority, replace_if_present and sm_default_msg_id 0). Byte for byte what the `smpp`
 * package's PDU class writes for the same parameters (a unit test compares them), without its
 * per-field filters, encoder lookups and intermediate objects: it runs for every part sent.
 */
export function encodeSubmitSm(sequence: number, p: SubmitSmParams): Buffer {
  const source = p.source_addr;
  const destination = p.destination_addr;
  const message = p.short_message;
  if (message.length > 254) throw new RangeError(`short_message of ${message.length} octets; at most 254 fit sm_length`);
  const sourceLength = Buffer.byteLength(source, 'ascii');
  const destinationLength = Buffer.byteLength(destination, 'ascii');
  // service_type(1) ton npi source\0 ton npi destination\0 esm protocol priority schedule(1) validity(1) registered replace coding default sm_length message
  const length = HEADER_LENGTH + 1 + 2 + sourceLength + 1 + 2 + destinationLength + 1 + 3 + 1 + 1 + 5 + message.length;
  const pdu = Buffer.allocUnsafe(length);
  pdu.writeUInt32BE(length, 0);
  pdu.writeUInt32BE(SUBMIT_SM, 4);
  pdu.writeUInt32BE(0, 8);
  pdu.writeUInt32BE(sequence, 12);
  let at = HEADER_LENGTH;
  pdu[at++] = 0; // service_type ""
  pdu[at++] = p.source_addr_ton;
  pdu[at++] = p.source_addr_npi;
  at += pdu.write(source, at, 'ascii');
  pdu[at++] = 0;
  pdu[at++] = p.dest_addr_ton;
  pdu[at++] = p.dest_addr_npi;
  at += pdu.write(destination, at, 'ascii');
  pdu[at++] = 0;
  pdu[at++] = p.esm_class;
  pdu[at++] = 0; // protocol_id
  pdu[at++] = 0; // priority_flag
  pdu[at++] = 0; // schedule_delivery_time ""
  pdu[at++] = 0; // validity_period ""
  pdu[at++] = p.registered_delivery;
  pdu[at++] = 0; // replace_if_present_flag
  pdu[at++] = p.data_coding;
  pdu[at++] = 0; // sm_default_msg_id
  pdu[at++] = message.length;
  message.copy(pdu, at);
  return pdu;
}
