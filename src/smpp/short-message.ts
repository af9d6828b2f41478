/** submit_sm and deliver_sm bodies (SMPP 3.4 §4.4.1, §4.6.1): the mandatory parameters we set, written straight into one Buffer. */
import { SUBMIT_SM } from './commands';
import { HEADER_LENGTH, writeHeader } from './pdu';

/** The submit_sm fields the carrier sets, named as in the specification; the rest keep their defaults. */
export interface SubmitSmParams {
  source_addr_ton: number;
  source_addr_npi: number;
  source_addr: string;
  dest_addr_ton: number;
  dest_addr_npi: number;
  destination_addr: string;
  esm_class: number;
  registered_delivery: number;
  data_coding: number;
  short_message: Buffer;
}

/** The mandatory parameters a submit_sm and a deliver_sm share (SMPP 3.4 §4.4.1, §4.6.1), as this service sets them. */
export interface ShortMessageBody {
  sourceAddrTon: number;
  sourceAddrNpi: number;
  sourceAddr: string;
  destAddrTon: number;
  destAddrNpi: number;
  destinationAddr: string;
  esmClass: number;
  registeredDelivery: number;
  dataCoding: number;
  shortMessage: Buffer;
}

/** Octets of `body` once written (from service_type to the end of short_message). */
export function shortMessageBodyLength(body: ShortMessageBody): number {
  if (body.shortMessage.length > 254) throw new RangeError(`short_message of ${body.shortMessage.length} octets; at most 254 fit sm_length`);
  // service_type(1) ton npi source\0 ton npi destination\0 esm protocol priority schedule(1) validity(1) registered replace coding default sm_length message
  return 1 + 2 + Buffer.byteLength(body.sourceAddr, 'ascii') + 1 + 2 + Buffer.byteLength(body.destinationAddr, 'ascii') + 1 + 3 + 1 + 1 + 5 + body.shortMessage.length;
}

/**
 * Writes the parameters every field we do not set leaves at its default (empty service_type, schedule and
 * validity, protocol_id, priority, replace_if_present and sm_default_msg_id 0) into `pdu` from `at`; returns
 * the offset after short_message.
 */
export function writeShortMessageBody(pdu: Buffer, at: number, body: ShortMessageBody): number {
  pdu[at++] = 0; // service_type ""
  pdu[at++] = body.sourceAddrTon;
  pdu[at++] = body.sourceAddrNpi;
  at += pdu.write(body.sourceAddr, at, 'ascii');
  pdu[at++] = 0;
  pdu[at++] = body.destAddrTon;
  pdu[at++] = body.destAddrNpi;
  at += pdu.write(body.destinationAddr, at, 'ascii');
  pdu[at++] = 0;
  pdu[at++] = body.esmClass;
  pdu[at++] = 0; // protocol_id
  pdu[at++] = 0; // priority_flag
  pdu[at++] = 0; // schedule_delivery_time ""
  pdu[at++] = 0; // validity_period ""
  pdu[at++] = body.registeredDelivery;
  pdu[at++] = 0; // replace_if_present_flag
  pdu[at++] = body.dataCoding;
  pdu[at++] = 0; // sm_default_msg_id
  pdu[at++] = body.shortMessage.length;
  return at + body.shortMessage.copy(pdu, at);
}

/**
 * Encodes a submit_sm straight into one Buffer (SMPP 3.4 §4.4.1). Byte for byte what the `smpp` package
 * writes for the same parameters (a unit test compares them, the package standing in as an independent
 * peer), without per-field filters or intermediate PDU objects: it runs for every part sent.
 */
export function encodeSubmitSm(sequence: number, p: SubmitSmParams): Buffer {
  const body: ShortMessageBody = {
    sourceAddrTon: p.source_addr_ton,
    sourceAddrNpi: p.source_addr_npi,
    sourceAddr: p.source_addr,
    destAddrTon: p.dest_addr_ton,
    destAddrNpi: p.dest_addr_npi,
    destinationAddr: p.destination_addr,
    esmClass: p.esm_class,
    registeredDelivery: p.registered_delivery,
    dataCoding: p.data_coding,
    shortMessage: p.short_message,
  };
  const pdu = Buffer.allocUnsafe(HEADER_LENGTH + shortMessageBodyLength(body));
  writeHeader(pdu, SUBMIT_SM, 0, sequence);
  writeShortMessageBody(pdu, HEADER_LENGTH, body);
  return pdu;
}
