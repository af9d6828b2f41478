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
  /**
   * Only these parts (1-based), a retry of some parts of the message; absent: every part. A retry keeps
   * the concatenation reference of the first attempt (`ref`) so the handset joins parts sent by different carriers.
   */
  parts?: number[];
  ref?: number;
}

/**
 * How a part ended at the carrier: accepted (smscId set), refused for good ('permanent', error set), or,
 * only when the caller asked for it (SubmitOptions.handBack), handed back to be tried elsewhere:
 * 'temporary' (throttled, queue full, system error: the SMSC has not taken it) or 'in-doubt' (sent, and
 * the carrier died before answering: the SMSC may have taken it). 'withheld': a CarrierGroup never
 * handed the part to any carrier (every member stayed down until the caller's fence said stop); the
 * caller must leave the message to be claimed again, not record it.
 */
export type PartOutcomeKind = 'accepted' | 'permanent' | 'temporary' | 'in-doubt' | 'withheld';

/** One SMS part as the carrier accepted it: smscId null and error set when the part was rejected permanently. */
export interface PartSubmission {
  /** The carrier that answered (set by the carrier that holds the SMSC session; a group passes it on). */
  carrierId: number;
  partNumber: number;
  totalParts: number;
  smscId: string | null;
  error?: string;
  /** The SMSC's command_status when it refused the part (absent when refused without an answer, e.g. closed). */
  errorCode?: number;
  /** Absent means 'accepted' when smscId is set, else 'permanent'. */
  outcome?: PartOutcomeKind;
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

export interface SubmitOptions {
  /**
   * Hand temporary failures and parts in doubt back (outcome 'temporary' / 'in-doubt') instead of
   * retrying them inside the carrier, so a CarrierGroup can try them on another member. Without it the
   * carrier retries them itself (a throttled part waits out the throttle and goes again).
   */
  handBack?: boolean;
  /**
   * For a CarrierGroup: while every member is down its messages wait, as long as this says they may still
   * be handed over (the batch lease fence); once it says no, the waiting parts resolve as 'withheld'.
   */
  mayHandOver?: () => boolean;
}

export interface Carrier {
  /** Its identity on parts and receipts (carrier-ids.ts). */
  readonly id: number;
  /** How operators, logs and metrics name it. */
  readonly name: string;
  /**
   * Resolves when every part of every message has a submit response or a permanent failure; transient
   * failures (throttling, a dropped connection) are retried inside the carrier unless options.handBack.
   */
  submit(messages: OutboundMessage[], options?: SubmitOptions): Promise<SubmissionResult[]>;
  /** Opens the connections ahead of the first submit (optional: a carrier without connections has none). */
  start?(): Promise<void>;
  /** The receipt is acknowledged to the carrier only after the handler's promise resolves. */
  onReceipt(handler: (r: DeliveryReceipt) => void | Promise<void>): void;
  /** The inbound message is acknowledged to the carrier only after the handler's promise resolves. */
  onInbound(handler: (m: InboundSms) => void | Promise<void>): void;
  state(): CarrierState;
  close(): Promise<void>;
  /**
   * True once the carrier is retired (replaced by carrier:update, or disabled or removed while running):
   * it takes no new parts, and gives back as 'temporary' or 'in-doubt' every part it has not had answered,
   * whatever SubmitOptions said, so its group sends them through the route's carriers as they are now.
   */
  retired?(): boolean;
}
