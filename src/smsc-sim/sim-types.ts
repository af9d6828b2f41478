/** Shapes shared by the SMSC simulator's parts. */
import type { Session } from '../smpp/session';

export interface SimLogger {
  info(msg: string, meta?: Record<string, unknown>): void;
  warn(msg: string, meta?: Record<string, unknown>): void;
  error(msg: string, meta?: Record<string, unknown>): void;
}

export interface SmscSimulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  systemId: string;
  password: string;
  /** Delay between accepting a submit_sm and sending its receipt. Default 1000 ms. */
  receiptDelayMs?: number;
  /** Destinations ending with this get stat:UNDELIV, others DELIVRD. Default '000' (the interface's failing test numbers). */
  failSuffix?: string;
  /** Delay before each submit_sm_resp, so unanswered submits pile up as on a real SMSC. Default 0. */
  respDelayMs?: number;
  /** Send each receipt before its submit_sm_resp (which follows after max(respDelayMs, 20) ms), to test that race. */
  receiptBeforeResp?: boolean;
  /** Retry delay for a deliver_sm refused or unanswered (connection lost). Default 1000 ms. */
  deliverRetryMs?: number;
  /**
   * Starts every message id this simulator gives (then 8 hex digits of a counter). Default: 4 random hex
   * digits. Two simulators given the same prefix give the same ids, as two carriers may.
   */
  messageIdPrefix?: string;
  /** Serve SMPP over TLS with this key and certificate (PEM). */
  tls?: { key: string | Buffer; cert: string | Buffer };
  logger?: SimLogger;
}

/** One submit_sm as received. smscId is null when the simulator refused it (e.g. throttled). */
export interface SubmitRecord {
  smscId: string | null;
  commandStatus: number;
  sourceAddr: string;
  sourceAddrTon: number;
  destinationAddr: string;
  dataCoding: number;
  esmClass: number;
  /** The user data header including its length octet, or null without UDHI. */
  udh: Buffer | null;
  /** short_message octets after the UDH (message_payload when short_message is empty). */
  shortMessage: Buffer;
  text: string;
  registeredDelivery: number;
  receivedAt: Date;
  sessionId: number;
}

export interface SimCounters {
  connections: number;
  binds: number;
  bindFailures: number;
  /** Binds refused by an injected fault (faults.refuseBinds). */
  bindsRefused: number;
  /** submit_sm accepted (ESME_ROK). */
  submits: number;
  /** submit_sm answered with any error status (throttled included). */
  refused: number;
  /** submit_sm answered with ESME_RTHROTTLED. */
  throttled: number;
  receiptsSent: number;
  receiptsAcked: number;
  /** deliver_sm answered with a non-ok status (the simulator redelivers them). */
  deliversRefused: number;
  moSent: number;
  moAcked: number;
  enquireLinks: number;
}

export interface SimSessionStats {
  sessionId: number;
  systemId: string | null;
  bound: boolean;
  submits: number;
  /** Most submit_sm received and not yet answered at any moment on this session. */
  maxUnanswered: number;
}

export type BindMode = 'transceiver' | 'transmitter' | 'receiver';

export interface SimSession {
  id: number;
  session: Session;
  systemId: string | null;
  mode: BindMode | null;
  submits: number;
  unanswered: number;
  maxUnanswered: number;
  closed: boolean;
}

export interface MoRequest {
  from: string;
  to: string;
  text: string;
  /** Default: gsm7 when the text is all GSM-7, else ucs2. */
  encoding?: 'gsm7' | 'ucs2';
  /** Carry the text in the message_payload TLV instead of short_message (also used when over 254 octets). */
  usePayload?: boolean;
}
