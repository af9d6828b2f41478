/** The PDU contents the SMSC simulator reads and writes: submit records, receipts, mobile-originated messages. */
import type { PDU } from 'smpp';
import { encodeGsm7Unpacked, gsm7CharCost, isGsm7 } from '../common/sms';
import { parseShortMessageBody, splitUserData } from '../smpp/short-message-reader';
import { formatReceiptText } from '../smpp/receipt-text';
import { decodeSmsBytes, encodeUcs2 } from '../smpp/sms-bytes';
import { sourceAddressing } from '../smpp/addressing';
import type { ReceiptDeliverSm } from '../smpp/smsc-pdus';
import type { MoRequest, SubmitRecord } from './sim-types';

const MESSAGE_STATE_DELIVERED = 2;
const MESSAGE_STATE_UNDELIVERABLE = 5;

/** A submit_sm as the simulator records it, from the decoded PDU (addresses) and its raw body (octets). */
export function submitRecord(pdu: PDU, body: Buffer, sessionId: number, smscId: string | null, commandStatus: number): SubmitRecord {
  const fields = parseShortMessageBody(body);
  const data = fields.shortMessage.length > 0 || !fields.messagePayload ? fields.shortMessage : fields.messagePayload;
  const { udh, payload } = splitUserData(fields.esmClass, data);
  return {
    smscId,
    commandStatus,
    sourceAddr: String(pdu.source_addr),
    sourceAddrTon: Number(pdu.source_addr_ton),
    destinationAddr: String(pdu.destination_addr),
    dataCoding: fields.dataCoding,
    esmClass: fields.esmClass,
    udh,
    shortMessage: payload,
    text: decodeSmsBytes(fields.dataCoding, payload),
    registeredDelivery: fields.registeredDelivery,
    receivedAt: new Date(),
    sessionId,
  };
}

/**
 * The receipt's deliver_sm for an accepted submit: from the handset back to the sender, with the
 * receipted_message_id and message_state TLVs and the standard receipt text (sent as GSM-7).
 */
export function receiptDeliverSm(record: SubmitRecord, smscId: string, delivered: boolean): ReceiptDeliverSm {
  const text = formatReceiptText({
    id: smscId,
    delivered,
    stat: delivered ? 'DELIVRD' : 'UNDELIV',
    err: delivered ? '000' : '001',
    submitDate: record.receivedAt,
    doneDate: new Date(),
    text: gsmSafe(record.text),
  });
  const handset = sourceAddressing(record.destinationAddr);
  const sender = sourceAddressing(record.sourceAddr);
  return {
    sourceAddrTon: handset.ton,
    sourceAddrNpi: handset.npi,
    sourceAddr: record.destinationAddr,
    destAddrTon: sender.ton,
    destAddrNpi: sender.npi,
    destinationAddr: record.sourceAddr,
    shortMessage: encodeGsm7Unpacked(text),
    receiptedMessageId: smscId,
    messageState: delivered ? MESSAGE_STATE_DELIVERED : MESSAGE_STATE_UNDELIVERABLE,
  };
}

/** deliver_sm fields of a mobile-originated message; long texts (over 254 octets) go in message_payload. */
export function moFields(mo: MoRequest): Record<string, unknown> {
  const encoding = mo.encoding ?? (isGsm7(mo.text) ? 'gsm7' : 'ucs2');
  const bytes = encoding === 'gsm7' ? encodeGsm7Unpacked(mo.text) : encodeUcs2(mo.text);
  const payload = mo.usePayload === true || bytes.length > 254;
  return {
    ...addressing('source', mo.from),
    source_addr: mo.from,
    ...addressing('dest', mo.to),
    destination_addr: mo.to,
    esm_class: 0,
    data_coding: encoding === 'gsm7' ? 0 : 8,
    ...(payload ? { short_message: Buffer.alloc(0), message_payload: bytes } : { short_message: bytes }),
  };
}

/** TON/NPI of an address as the package's field names, by the carrier's rule (sourceAddressing). */
function addressing(side: 'source' | 'dest', addr: string): Record<string, number> {
  const { ton, npi } = sourceAddressing(addr);
  return { [`${side}_addr_ton`]: ton, [`${side}_addr_npi`]: npi };
}

/** Receipt text is sent as GSM-7: characters outside it become '?'. */
function gsmSafe(text: string): string {
  let safe = true;
  for (let i = 0; i < text.length && safe; i++) safe = gsm7CharCost(text.charCodeAt(i)) > 0;
  if (safe) return text;
  let out = '';
  for (const ch of text) out += ch.length === 1 && gsm7CharCost(ch.charCodeAt(0)) > 0 ? ch : '?';
  return out;
}
