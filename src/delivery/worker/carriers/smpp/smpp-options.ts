/** Settings of an SMPP carrier account; AppConfig builds these from the environment. */
import type { SourceAddressing } from '../../../../smpp/addressing';
import { ENV_CARRIER_ID, ENV_CARRIER_NAME } from '../../../../carriers/carrier-ids';

export interface CarrierLogger {
  info(msg: string, meta?: Record<string, unknown>): void;
  warn(msg: string, meta?: Record<string, unknown>): void;
  error(msg: string, meta?: Record<string, unknown>): void;
}

/** Sees each submit_sm_resp: its command_status and seconds since the part went out (null when not known). */
export interface SmppObserver {
  /** A submit_sm went out (a re-send too). */
  submitted?(): void;
  answered(status: number, seconds: number | null): void;
}

export interface SmppCarrierOptions {
  /** The carrier's identity on parts and receipts (carrier-ids.ts); default 0, the SMPP_* environment carrier. */
  id?: number;
  /** Its name in logs, metrics and the CLI; default `env`. */
  name?: string;
  host: string;
  port: number;
  systemId: string;
  password: string;
  /** SMPP over TLS; the server certificate is verified unless tlsRejectUnauthorized is false. */
  tls: boolean;
  /** Number of bind_transceiver sessions kept open. */
  binds: number;
  /** Most submit_sm awaiting their submit_sm_resp on one bind. */
  window: number;
  /** Most submit_sm a second on one bind; 0 means no cap. */
  tpsPerBind: number;
  /** Send enquire_link after this long without any PDU from the SMSC. */
  enquireLinkMs: number;
  /**
   * An enquire_link unanswered this long drops the bind (a silent SMSC); one is also sent when submits
   * await answers and the SMSC has said nothing for half this long. Default: submitTimeoutMs.
   */
  enquireLinkTimeoutMs?: number;
  /** Reconnect delay after a drop: base·2^attempt, capped at max. */
  reconnectBaseMs: number;
  reconnectMaxMs: number;
  /** A request (bind, submit_sm, enquire_link) unanswered this long means the session is dead: it is dropped and reconnected. */
  submitTimeoutMs: number;
  logger?: CarrierLogger;
  systemType?: string;
  tlsRejectUnauthorized?: boolean;
  /** Extra CA certificate(s) (PEM) to trust for the SMSC's TLS certificate, e.g. a carrier's private CA. */
  tlsCa?: string | Buffer;
  /** Pause of a bind after ESME_RTHROTTLED / ESME_RMSGQFUL: base·2^n for consecutive throttles, capped. Defaults 200 ms and 5 s. */
  throttleBackoffMs?: number;
  throttleBackoffMaxMs?: number;
  /** A part whose bind dropped before its submit_sm_resp this many times fails instead of being re-sent again. Default 10. */
  maxRequeues?: number;
  /** Offset of the SMSC's clock from UTC for receipt dates, in minutes (e.g. 600 for AEST). Default 0. */
  receiptUtcOffsetMinutes?: number;
  /** Source TON/NPI per sender kind when the carrier wants other than the usual (5/0 alphanumeric, 1/1 numeric). */
  sourceAddressing?: SourceAddressing;
  /** Told of every submit_sm answer (per-carrier metrics and status). */
  observer?: SmppObserver;
  /** Source of receivedAt on receipts and inbound messages (the app's Clock). */
  clock?: { now(): Date };
}

export type ResolvedSmppOptions = Required<Omit<SmppCarrierOptions, 'logger' | 'tlsCa' | 'sourceAddressing' | 'observer'>> & {
  observer: SmppObserver | undefined;
  logger: CarrierLogger;
  tlsCa: string | Buffer | undefined;
  sourceAddressing: SourceAddressing | undefined;
};

const silentLogger: CarrierLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

export function resolveSmppOptions(options: SmppCarrierOptions): ResolvedSmppOptions {
  if (!(options.binds >= 1)) throw new RangeError('binds must be at least 1');
  if (!(options.window >= 1)) throw new RangeError('window must be at least 1');
  return {
    ...options,
    id: options.id ?? ENV_CARRIER_ID,
    name: options.name ?? ENV_CARRIER_NAME,
    systemType: options.systemType ?? '',
    tlsRejectUnauthorized: options.tlsRejectUnauthorized ?? true,
    throttleBackoffMs: options.throttleBackoffMs ?? 200,
    throttleBackoffMaxMs: options.throttleBackoffMaxMs ?? 5_000,
    maxRequeues: options.maxRequeues ?? 10,
    enquireLinkTimeoutMs: options.enquireLinkTimeoutMs ?? options.submitTimeoutMs,
    receiptUtcOffsetMinutes: options.receiptUtcOffsetMinutes ?? 0,
    sourceAddressing: options.sourceAddressing,
    observer: options.observer,
    tlsCa: options.tlsCa,
    clock: options.clock ?? { now: () => new Date() },
    logger: options.logger ?? silentLogger,
  };
}
