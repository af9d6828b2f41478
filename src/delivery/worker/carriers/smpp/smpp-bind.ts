/**
 * One bind_transceiver session and its lifecycle: connect, bind, and on any loss reconnect with capped
 * exponential backoff. The wire (framing, sequence numbers, matching each resp to its submit, the
 * window, request timeouts, enquire_link, unbind, generic_nack) is src/smpp's Session; the bind adds the
 * carrier's policy: its TPS token bucket, its throttle pause, and handing the submits a lost session left
 * unanswered back to the carrier (to re-send).
 */
import net from 'node:net';
import tls from 'node:tls';
import { BIND_TRANSCEIVER, DELIVER_SM, describeStatus, ESME_RMSGQFUL, ESME_ROK, ESME_RTHROTTLED, STATUS, SUBMIT_SM_RESP } from '../../../../smpp/commands';
import { encodeDeliverSmResp, submitSmRespMessageId } from '../../../../smpp/pdu';
import { Session } from '../../../../smpp/session';
import type { ResponseHandler } from '../../../../smpp/session';
import { encodeBind, INTERFACE_VERSION_34 } from '../../../../smpp/session-pdus';
import { encodeSubmitSm } from '../../../../smpp/short-message';
import type { SubmitSmParams } from '../../../../smpp/short-message';
import { backoffDelay, TokenBucket } from './flow-control';
import type { ResolvedSmppOptions } from './smpp-options';

export type BindStatus = 'idle' | 'connecting' | 'bound' | 'waiting' | 'closed';

/** What a bind carries for the carrier; the bind only reads `params`. */
export interface BindTask {
  params: SubmitSmParams;
}

export interface BindListener<T extends BindTask> {
  bindUp(bind: SmppBind<T>): void;
  /** The session ended; `unanswered` are the submits sent on it that got no resp (to be re-sent). */
  bindDown(bind: SmppBind<T>, unanswered: T[], reason: string): void;
  /** The SMSC answered a submit_sm: its command_status, and the message_id of an accepted one ('' otherwise). */
  submitAnswered(bind: SmppBind<T>, task: T, status: number, messageId: string): void;
  /** A deliver_sm (its body from command_id on); `respond` sends its deliver_sm_resp with the given command_status. */
  deliverReceived(bind: SmppBind<T>, body: Buffer, respond: (status: number) => void): void;
}

export function isThrottleStatus(status: number): boolean {
  return status === ESME_RTHROTTLED || status === ESME_RMSGQFUL;
}

/** The SMSC did not take the part but may later: throttled, queue full, or its system error. */
export function isTemporaryStatus(status: number): boolean {
  return status === ESME_RTHROTTLED || status === ESME_RMSGQFUL || status === STATUS.ESME_RSYSERR;
}

export class SmppBind<T extends BindTask> {
  status: BindStatus = 'idle';
  reconnects = 0;
  lastError: string | null = null;
  private session: Session | null = null;
  private readonly bucket: TokenBucket;
  private failedAttempts = 0;
  private throttleLevel = 0;
  private pausedUntil = 0;
  /** Submits of the closing session that got no resp (its close hands them over one by one, then says why). */
  private unanswered: T[] = [];
  private connectTimer: NodeJS.Timeout | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  /** One handler for every submit's resp (the task is its context): nothing is made per submit but the PDU. */
  private readonly onSubmitResp: ResponseHandler<T> = (task, resp) => this.submitAnswered(task, resp);

  constructor(
    readonly index: number,
    private readonly options: ResolvedSmppOptions,
    private readonly listener: BindListener<T>,
  ) {
    this.bucket = new TokenBucket(options.tpsPerBind);
  }

  get inFlightCount(): number {
    return this.session?.inFlight ?? 0;
  }

  start(): void {
    if (this.status === 'idle') this.open();
  }

  /**
   * 0 when a submit can go now; a positive number of ms to wait for the throttle pause or a TPS token;
   * Infinity when the bind is down or its window is full (a bindUp or a resp will bring it back).
   */
  waitMs(now: number): number {
    if (this.status !== 'bound' || !this.session?.hasRoom) return Infinity;
    if (now < this.pausedUntil) return this.pausedUntil - now;
    return this.bucket.msUntilToken(now);
  }

  /** Sends a submit_sm when waitMs(now) is 0; false when it could not be sent (the caller keeps the task). */
  trySubmit(task: T, now: number): boolean {
    const session = this.session;
    if (!session || this.waitMs(now) !== 0 || !this.bucket.tryTake(now)) return false;
    if (!session.writable) {
      this.drop(session, 'socket not writable');
      return false;
    }
    const sequence = session.nextSequence();
    const pdu = encodeSubmitSm(sequence, task.params); // may throw: the number is then never used, which SMPP allows
    return session.request(sequence, pdu, task, this.onSubmitResp);
  }

  /** Unbinds (after which the SMSC closes) and stops reconnecting; resolves when the socket is closed. */
  async close(): Promise<void> {
    const previous = this.status;
    this.status = 'closed';
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    const session = this.session;
    if (!session) return;
    if (previous === 'bound') return session.unbind();
    session.destroy('carrier closed');
    return session.whenClosed();
  }

  private open(): void {
    const { host, port, tlsRejectUnauthorized, tlsCa, submitTimeoutMs, enquireLinkMs, enquireLinkTimeoutMs, window, logger } = this.options;
    this.status = 'connecting';
    const socket = this.options.tls ? tls.connect({ host, port, rejectUnauthorized: tlsRejectUnauthorized, ...(tlsCa ? { ca: tlsCa } : {}) }) : net.connect({ host, port });
    const session: Session = new Session(
      socket,
      {
        request: (pdu, commandId, sequence) => commandId === DELIVER_SM && this.onDeliver(session, pdu, sequence),
        closed: (reason) => this.onClose(session, reason),
      },
      { requestTimeoutMs: submitTimeoutMs, enquireLinkMs, enquireLinkTimeoutMs, window, logger },
    );
    this.session = session;
    socket.once(this.options.tls ? 'secureConnect' : 'connect', () => this.onConnect(session));
    this.connectTimer = setTimeout(() => this.status === 'connecting' && this.drop(session, 'connect/bind timed out'), submitTimeoutMs);
  }

  private onConnect(session: Session): void {
    const { systemId, password, systemType } = this.options;
    const bind = encodeBind(BIND_TRANSCEIVER, 0, { systemId, password, systemType, interfaceVersion: INTERFACE_VERSION_34 });
    session.control(bind, session, (bound, resp) => resp && this.onBindResp(bound, resp));
  }

  /** The bind_transceiver_resp (or a generic_nack to the bind). */
  private onBindResp(session: Session, resp: Buffer): void {
    if (session !== this.session || this.status !== 'connecting') return;
    const status = resp.readUInt32BE(8);
    if (status !== ESME_ROK) {
      const refusal = `bind_transceiver refused: ${describeStatus(status)}`;
      this.options.logger.error('smpp bind refused', { bind: this.index, status: describeStatus(status) });
      this.drop(session, refusal);
      return;
    }
    if (this.connectTimer) clearTimeout(this.connectTimer);
    this.connectTimer = null;
    this.status = 'bound';
    this.failedAttempts = 0;
    this.lastError = null;
    session.keepAlive(true);
    this.options.logger.info('smpp bound', { bind: this.index, host: this.options.host, port: this.options.port });
    this.listener.bindUp(this);
  }

  private onDeliver(session: Session, pdu: Buffer, sequence: number): true {
    // A group commit answers hundreds of receipts at once: the session's writes of one tick share one syscall.
    this.listener.deliverReceived(this, pdu.subarray(4), (answer) => session === this.session && session.write(encodeDeliverSmResp(sequence, answer)));
    return true;
  }

  /** A submit's answer: its submit_sm_resp, or a generic_nack when the SMSC could not read it; null when the session ended first. */
  private submitAnswered(task: T, resp: Buffer | null): void {
    if (resp === null) {
      this.unanswered.push(task);
      return;
    }
    const status = resp.readUInt32BE(8);
    if (isThrottleStatus(status)) {
      this.pause();
    } else if (status === ESME_ROK) {
      this.throttleLevel = 0;
    }
    const messageId = status === ESME_ROK && resp.readUInt32BE(4) === SUBMIT_SM_RESP ? submitSmRespMessageId(resp) : '';
    this.listener.submitAnswered(this, task, status, messageId);
  }

  /** One pause per throttle episode: resps to submits already in flight do not lengthen it. */
  private pause(): void {
    const now = Date.now();
    if (now < this.pausedUntil) return;
    const delay = backoffDelay(this.throttleLevel++, this.options.throttleBackoffMs, this.options.throttleBackoffMaxMs);
    this.pausedUntil = now + delay;
    this.options.logger.warn('smpp bind throttled', { bind: this.index, pauseMs: delay });
  }

  /** Ends the session now; 'waiting' at once so nothing more is sent on it before its close event. */
  private drop(session: Session, reason: string): void {
    if (session !== this.session) return;
    if (this.status !== 'closed') this.status = 'waiting';
    session.destroy(reason);
  }

  private onClose(session: Session, reason: string): void {
    if (session !== this.session) return;
    if (this.connectTimer) clearTimeout(this.connectTimer);
    this.connectTimer = null;
    this.session = null;
    const unanswered = this.unanswered;
    this.unanswered = [];
    this.lastError = reason;
    if (this.status !== 'closed') {
      const delay = backoffDelay(this.failedAttempts++, this.options.reconnectBaseMs, this.options.reconnectMaxMs);
      this.status = 'waiting';
      this.options.logger.warn('smpp bind down', { bind: this.index, reason, reconnectInMs: delay, unanswered: unanswered.length });
      this.reconnectTimer = setTimeout(() => {
        this.reconnectTimer = null;
        this.reconnects++;
        this.open();
      }, delay);
    }
    this.listener.bindDown(this, unanswered, reason);
  }
}
