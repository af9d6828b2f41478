/** The PDU contents the SMSC simulator reads and writes: submit records, receipts, mobile-originated messages. */
import { encodeGsm7Unpacked, gsm7CharCost, isGsm7 } from '../common/sms';
import { sourceAddressing } from '../smpp/addressing';
import { formatReceiptText } from '../smpp/receipt-text';
import { splitUserData } from '../smpp/short-message-reader';
import type { ShortMessageFields } from '../smpp/short-message-reader';
import { DATA_CODING_GSM7, DATA_CODING_UCS2, decodeSmsBytes, encodeUcs2 } from '../smpp/sms-bytes';
import type { MoDeliverSm, ReceiptDeliverSm } from '../smpp/smsc-pdus';
import type { MoRequest, SubmitRecord } from './sim-types';

const MESSAGE_STATE_DELIVERED = 2;
const MESSAGE_STATE_UNDELIVERABLE = 5;

/** A submit_sm as the simulator records it, from the fields read from its octets. */
export function submitRecord(fields: ShortMessageFields, sourceAddrTon: number, sessionId: number, smscId: string | null, commandStatus: number): SubmitRecord {
  const data = fields.shortMessage.length > 0 || !fields.messagePayload ? fields.shortMessage : fields.messagePayload;
  const { udh, payload } = splitUserData(fields.esmClass, data);
  return {
    smscId,
    commandStatus,
    sourceAddr: fields.sourceAddr,
    sourceAddrTon,
    destinationAddr: fields.destinationAddr,
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

/** The deliver_sm of a mobile-originated message; long texts (over 254 octets) go in message_payload. */
export function moDeliverSm(mo: MoRequest): MoDeliverSm {
  const encoding = mo.encoding ?? (isGsm7(mo.text) ? 'gsm7' : 'ucs2');
  const bytes = encoding === 'gsm7' ? encodeGsm7Unpacked(mo.text) : encodeUcs2(mo.text);
  const payload = mo.usePayload === true || bytes.length > 254;
  const from = sourceAddressing(mo.from);
  const to = sourceAddressing(mo.to);
  return {
    sourceAddrTon: from.ton,
    sourceAddrNpi: from.npi,
    sourceAddr: mo.from,
    destAddrTon: to.ton,
    destAddrNpi: to.npi,
    destinationAddr: mo.to,
    dataCoding: encoding === 'gsm7' ? DATA_CODING_GSM7 : DATA_CODING_UCS2,
    shortMessage: payload ? Buffer.alloc(0) : bytes,
    messagePayload: payload ? bytes : null,
  };
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
