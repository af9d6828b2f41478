/**
 * What a deliver_sm is: a delivery receipt (esm_class message type 0x04, or a receipted_message_id TLV)
 * or a mobile-originated message. Receipts take their id from receipted_message_id when present (the
 * text's id may be formatted differently, e.g. decimal instead of hex) and their state from the text's
 * stat, falling back to the message_state TLV.
 */
import { STATUS } from '../../../../smpp/commands';
import type { DeliveryReceipt, InboundSms } from '../carrier';
import { parseShortMessageBody, splitUserData } from '../../../../smpp/short-message-reader';
import type { ShortMessageFields } from '../../../../smpp/short-message-reader';
import { parseReceiptText, receiptOutcome, statFromMessageState } from '../../../../smpp/receipt-text';
import { decodeSmsBytes } from '../../../../smpp/sms-bytes';
import type { RepeatedLines } from '../../../../common/logging/repeated-lines';
import type { CarrierLogger } from './smpp-options';

const ESM_CLASS_DELIVERY_RECEIPT = 0x04;

export type DeliverKind =
  | { kind: 'receipt'; receipt: DeliveryReceipt }
  | { kind: 'intermediate'; smscId: string; stat: string }
  | { kind: 'inbound'; sms: InboundSms }
  | { kind: 'unreadable'; reason: string };

/**
 * Classifies a deliver_sm that carrier `carrierId` sent, from its raw body (from command_id on; see smpp/short-message-reader): the text is decoded from
 * the octets as sent, with the same GSM-7 tables we encode with.
 */
export function classifyDeliver(body: Buffer, carrierId: number, receivedAt: Date, utcOffsetMinutes = 0): DeliverKind {
  let fields: ShortMessageFields;
  let text: string;
  try {
    fields = parseShortMessageBody(body);
    const data = fields.shortMessage.length > 0 || !fields.messagePayload ? fields.shortMessage : fields.messagePayload;
    text = decodeSmsBytes(fields.dataCoding, splitUserData(fields.esmClass, data).payload);
  } catch (err) {
    return { kind: 'unreadable', reason: (err as Error).message };
  }
  const tlvId = fields.receiptedMessageId !== null && fields.receiptedMessageId !== '' ? fields.receiptedMessageId : null;

  if ((fields.esmClass & ESM_CLASS_DELIVERY_RECEIPT) !== 0 || tlvId !== null) {
    const parsed = parseReceiptText(text, utcOffsetMinutes);
    const smscId = tlvId ?? parsed.id;
    const stat = parsed.stat ?? (fields.messageState !== null ? statFromMessageState(fields.messageState) : null);
    if (!smscId) return { kind: 'unreadable', reason: `receipt without an id: ${JSON.stringify(text)}` };
    if (!stat) return { kind: 'unreadable', reason: `receipt without a stat: ${JSON.stringify(text)}` };
    const outcome = receiptOutcome(stat);
    if (outcome === null) return { kind: 'unreadable', reason: `receipt with unknown stat ${stat}` };
    if (outcome === 'intermediate') return { kind: 'intermediate', smscId, stat };
    return {
      kind: 'receipt',
      receipt: { carrierId, smscId, state: outcome, stat, err: parsed.err ?? '000', doneAt: parsed.doneDate ?? receivedAt, receivedAt },
    };
  }

  return { kind: 'inbound', sms: { carrierId, from: fields.sourceAddr, to: fields.destinationAddr, text, receivedAt } };
}

export interface DeliverHandlers {
  receipt: ((r: DeliveryReceipt) => void | Promise<void>) | null;
  inbound: ((m: InboundSms) => void | Promise<void>) | null;
}

/**
 * Runs the handler for a classified deliver_sm and answers it: ok once the handler resolves, a temporary
 * application error (ESME_RX_T_APPN, so the SMSC redelivers) when it throws or no handler is registered
 * yet. Intermediate and unreadable ones are acknowledged at once: there is nothing to store, and a
 * refusal would make the SMSC redeliver them forever. Handler failures (PostgreSQL out of reach: every
 * deliver_sm fails alike) are written once a second with their count.
 */
export function handleDeliver(
  delivered: DeliverKind,
  handlers: DeliverHandlers,
  respond: (status: number) => void,
  logger: CarrierLogger,
  failures: RepeatedLines,
  meta: Record<string, unknown>,
): void {
  if (delivered.kind === 'unreadable' || delivered.kind === 'intermediate') {
    if (delivered.kind === 'unreadable') logger.warn('smpp deliver_sm not understood', { ...meta, reason: delivered.reason });
    respond(STATUS.ESME_ROK);
    return;
  }
  let run: (() => void | Promise<void>) | null = null;
  if (delivered.kind === 'receipt') {
    const handler = handlers.receipt;
    if (handler) run = () => handler(delivered.receipt);
  } else {
    const handler = handlers.inbound;
    if (handler) run = () => handler(delivered.sms);
  }
  if (!run) {
    logger.warn('smpp deliver_sm before a handler was registered', { ...meta, kind: delivered.kind });
    respond(STATUS.ESME_RX_T_APPN);
    return;
  }
  Promise.resolve()
    .then(run)
    .then(
      () => respond(STATUS.ESME_ROK),
      (err: unknown) => {
        failures.note(`smpp deliver_sm ${delivered.kind} handler failed; the SMSC will redeliver`, { ...meta, err: String(err) });
        respond(STATUS.ESME_RX_T_APPN);
      },
    );
}
