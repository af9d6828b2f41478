/**
 * What the dispatcher needs from a carrier, independent of the wire protocol. Numbers are international
 * digits without '+' (61412345678); a sender with any non-digit is alphanumeric ('MyBrand').
 */
import type { SmsEncoding } from '../../../common/sms';

export interface OutboundMessage {
  messageId: string;
  from: string;
  to: string;
  text: string;
  encoding: SmsEncoding;
}

/** One SMS part as the carrier accepted it: smscId null and error set when the part was rejected permanently. */
export interface PartSubmission {
  /** The carrier that answered (set by the carrier that holds the SMSC session; a group passes it on). */
  carrierId: number;
  partNumber: number;
  totalParts: number;
  smscId: string | null;
  error?: string;
}

export interface SubmissionResult {
  messageId: string;
  parts: PartSubmission[];
}

export interface DeliveryReceipt {
  /** The carrier that sent it: an SMSC's ids are unique only on that SMSC, so receipts match on both. */
  carrierId: number;
  smscId: string;
  state: 'delivered' | 'failed';
  /** The receipt's stat word as sent (DELIVRD, UNDELIV, …). */
  stat: string;
  /** The receipt's err field as sent ('000' when absent). */
  err: string;
  doneAt: Date;
  receivedAt: Date;
}

export interface InboundSms {
  /** The carrier it arrived on (any carrier: it reaches the account owning the number it was sent to). */
  carrierId: number;
  from: string;
  to: string;
  text: string;
  receivedAt: Date;
}

export interface CarrierState {
  kind: string;
  bindsConfigured: number;
  bindsUp: number;
  inFlight: number;
  submitted: number;
  throttled: number;
  reconnects: number;
}

export interface Carrier {
  /** Its identity on parts and receipts (carrier-ids.ts). */
  readonly id: number;
  /** How operators, logs and metrics name it. */
  readonly name: string;
  /**
   * Resolves when every part of every message has a submit response or a permanent failure; transient
   * failures (throttling, a dropped connection) are retried inside the carrier.
   */
  submit(messages: OutboundMessage[]): Promise<SubmissionResult[]>;
  /** The receipt is acknowledged to the carrier only after the handler's promise resolves. */
  onReceipt(handler: (r: DeliveryReceipt) => void | Promise<void>): void;
  /** The inbound message is acknowledged to the carrier only after the handler's promise resolves. */
  onInbound(handler: (m: InboundSms) => void | Promise<void>): void;
  state(): CarrierState;
  close(): Promise<void>;
}
