/**
 * One bind_transceiver session and its lifecycle: connect, bind, keep alive with enquire_link, and on
 * any loss reconnect with capped exponential backoff. It owns its window (submit_sm awaiting a resp),
 * its TPS token bucket and its throttle pause; the carrier decides what to send and where.
 *
 * The bind reads its socket itself (see readPdusOf) and matches each submit_sm_resp to its submit in
 * its own map of unanswered submits, which it hands back to the carrier (to re-send) when the session
 * goes down.
 */
import { connect, ESME_RMSGQFUL, ESME_ROK, ESME_RTHROTTLED, PDU } from 'smpp';
import type { Session } from 'smpp';
import { backoffDelay, TokenBucket } from './flow-control';
import { describeStatus } from '../../../../smpp/commands';
import { corkForThisTick } from '../../../../smpp/cork';
import { DELIVER_SM, RESPONSE_BIT, SUBMIT_SM_RESP } from '../../../../smpp/commands';
import { encodeDeliverSmResp, MAX_SEQUENCE, PduFramer, readHeader, submitSmRespMessageId } from '../../../../smpp/pdu';
import { encodeSubmitSm } from '../../../../smpp/short-message';
import type { ResolvedSmppOptions } from './smpp-options';
import type { SubmitSmParams } from '../../../../smpp/short-message';

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

interface InFlight<T> {
  task: T;
  sentAt: number;
}

export function isThrottleStatus(status: number): boolean {
  return status === ESME_RTHROTTLED || status === ESME_RMSGQFUL;
}

export class SmppBind<T extends BindTask> {
  status: BindStatus = 'idle';
  reconnects = 0;
  lastError: string | null = null;
  private session: Session | null = null;
  private readonly inFlight = new Map<number, InFlight<T>>();
  private readonly bucket: TokenBucket;
  private failedAttempts = 0;
  private throttleLevel = 0;
  private pausedUntil = 0;
  private lastReceivedAt = 0;
  private connectStartedAt = 0;
  private enquireSentAt: number | null = null;
  private watchdog: NodeJS.Timeout | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly index: number,
    private readonly options: ResolvedSmppOptions,
    private readonly listener: BindListener<T>,
  ) {
    this.bucket = new TokenBucket(options.tpsPerBind);
  }

  get inFlightCount(): number {
    return this.inFlight.size;
  }

  start(): void {
    if (this.status === 'idle') this.open();
  }

  /**
   * 0 when a submit can go now; a positive number of ms to wait for the throttle pause or a TPS token;
   * Infinity when the bind is down or its window is full (a bindUp or a resp will bring it back).
   */
  waitMs(now: number): number {
    if (this.status !== 'bound' || this.inFlight.size >= this.options.window) return Infinity;
    if (now < this.pausedUntil) return this.pausedUntil - now;
    return this.bucket.msUntilToken(now);
  }

  /** Sends a submit_sm when waitMs(now) is 0; false when it could not be sent (the caller keeps the task). */
  trySubmit(task: T, now: number): boolean {
    const session = this.session;
    if (!session || this.waitMs(now) !== 0 || !this.bucket.tryTake(now)) return false;
    if (!session.socket.writable) {
      this.drop(session, 'socket not writable');
      return false;
    }
    // Numbered as session.send numbers (the session's own counter, shared with its bind and enquire_link),
    // with bytes encoded here in one step instead of through the package's PDU object: this runs for
    // every part sent. Its resp is read by onPdu and matched to inFlight by sequence number.
    const sequence = session.sequence === MAX_SEQUENCE ? 1 : session.sequence + 1;
    const pdu = encodeSubmitSm(sequence, task.params); // may throw: nothing is changed before it has run
    session.sequence = sequence;
    corkForThisTick(session.socket);
    session.socket.write(pdu);
    this.inFlight.set(sequence, { task, sentAt: now });
    return true;
  }

  /** Unbinds (after which the SMSC closes) and stops reconnecting; resolves when the socket is closed. */
  async close(): Promise<void> {
    const previous = this.status;
    this.status = 'closed';
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    const session = this.session;
    if (!session) return;
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => session.destroy(), this.options.submitTimeoutMs);
      session.socket.once('close', () => {
        clearTimeout(force);
        resolve();
      });
      const unbound = previous === 'bound' && session.send(new PDU('unbind'), () => session.close());
      if (!unbound) session.destroy();
    });
  }

  private open(): void {
    const { host, port, tls, tlsRejectUnauthorized, tlsCa } = this.options;
    this.status = 'connecting';
    this.connectStartedAt = Date.now();
    const tlsOptions = tls ? { rejectUnauthorized: tlsRejectUnauthorized, ...(tlsCa ? { ca: tlsCa } : {}) } : {};
    const session = connect({ host, port, tls, ...tlsOptions });
    this.session = session;
    this.readPdusOf(session);
    session.socket.setNoDelay(true);
    // The package re-emits socket errors; without a listener they would crash the process.
    session.on('error', (err: Error) => this.drop(session, err.message));
    session.on('close', () => this.onClose(session));
    session.on(tls ? 'secureConnect' : 'connect', () => this.onConnect(session));
    session.on('enquire_link', (pdu: PDU) => session.send(pdu.response()));
    session.on('unbind', (pdu: PDU) => {
      session.send(pdu.response());
      session.close();
    });
    session.on('unknown', (pdu: PDU) => session.send(pdu.response()));
    const { submitTimeoutMs, enquireLinkMs } = this.options;
    this.watchdog = setInterval(() => this.checkHealth(session), Math.max(10, Math.min(1000, submitTimeoutMs / 4, enquireLinkMs / 2)));
  }

  private onConnect(session: Session): void {
    const { systemId, password, systemType } = this.options;
    const bind = new PDU('bind_transceiver', { system_id: systemId, password, system_type: systemType, interface_version: 0x34 });
    session.send(bind, (resp) => {
      if (session !== this.session || this.status !== 'connecting') return;
      if (resp.command_status !== ESME_ROK) {
        this.lastError = `bind_transceiver refused: ${describeStatus(resp.command_status)}`;
        this.options.logger.error('smpp bind refused', { bind: this.index, status: describeStatus(resp.command_status) });
        session.destroy();
        return;
      }
      this.status = 'bound';
      this.failedAttempts = 0;
      this.lastError = null;
      this.lastReceivedAt = Date.now();
      this.options.logger.info('smpp bound', { bind: this.index, host: this.options.host, port: this.options.port });
      this.listener.bindUp(this);
    });
  }

  /**
   * Takes the socket's reading over from the package (its one 'readable' listener, added when the session
   * was created): submit_sm_resp and deliver_sm are read here (pdu-reader), anything else is decoded by
   * the package and handled as the session would (its events and response callbacks).
   */
  private readPdusOf(session: Session): void {
    const socket = session.socket;
    const framer = new PduFramer();
    socket.removeAllListeners('readable');
    socket.on('readable', () => {
      let chunk: Buffer | null;
      while ((chunk = socket.read() as Buffer | null) !== null) {
        this.lastReceivedAt = Date.now();
        const pdus: Buffer[] = [];
        let unreadable: Error | null = null;
        try {
          framer.push(chunk, (pdu) => pdus.push(pdu));
        } catch (err) {
          unreadable = err as Error;
        }
        // The PDUs framed before a bad length still count (they are views into this chunk, used right here).
        for (const pdu of pdus) this.onPdu(session, pdu);
        if (unreadable) {
          // A length no PDU can have: the stream cannot be read any further.
          this.drop(session, `unreadable PDU from the SMSC: ${unreadable.message}`);
          return;
        }
      }
    });
  }

  private onPdu(session: Session, pdu: Buffer): void {
    if (session !== this.session) return;
    try {
      this.handlePdu(session, pdu);
    } catch (err) {
      // A fault of ours in handling one PDU (not of the SMSC's bytes): the rest of the chunk still counts.
      this.options.logger.error('smpp PDU not handled', { bind: this.index, commandId: pdu.readUInt32BE(4), err: (err as Error).message });
    }
  }

  private handlePdu(session: Session, pdu: Buffer): void {
    const { commandId, status, sequence } = readHeader(pdu);
    if (commandId === DELIVER_SM) {
      this.listener.deliverReceived(this, pdu.subarray(4), (answer) => {
        if (session !== this.session || !session.socket.writable) return;
        // A group commit answers hundreds of receipts at once: their deliver_sm_resp share one write.
        corkForThisTick(session.socket);
        session.socket.write(encodeDeliverSmResp(sequence, answer));
      });
      return;
    }
    // A submit's answer is its submit_sm_resp, or a generic_nack when the SMSC could not read it.
    if ((commandId & RESPONSE_BIT) !== 0 && this.inFlight.has(sequence)) {
      this.onSubmitResp(sequence, status, commandId === SUBMIT_SM_RESP && status === ESME_ROK ? submitSmRespMessageId(pdu) : '');
      return;
    }
    let decoded: PDU;
    try {
      decoded = new PDU(pdu);
    } catch (err) {
      this.drop(session, `unreadable PDU from the SMSC: ${(err as Error).message}`);
      return;
    }
    session.emit(decoded.command, decoded);
    const callback = (commandId & RESPONSE_BIT) !== 0 ? session._callbacks[sequence] : undefined;
    if (callback) {
      delete session._callbacks[sequence];
      callback(decoded);
    }
  }

  private onSubmitResp(sequence: number, status: number, messageId: string): void {
    const entry = this.inFlight.get(sequence);
    if (!entry) return;
    this.inFlight.delete(sequence);
    if (isThrottleStatus(status)) {
      this.pause();
    } else if (status === ESME_ROK) {
      this.throttleLevel = 0;
    }
    this.listener.submitAnswered(this, entry.task, status, messageId);
  }

  /** One pause per throttle episode: resps to submits already in flight do not lengthen it. */
  private pause(): void {
    const now = Date.now();
    if (now < this.pausedUntil) return;
    const delay = backoffDelay(this.throttleLevel++, this.options.throttleBackoffMs, this.options.throttleBackoffMaxMs);
    this.pausedUntil = now + delay;
    this.options.logger.warn('smpp bind throttled', { bind: this.index, pauseMs: delay });
  }

  /** Drops a session whose requests go unanswered; sends enquire_link when the SMSC has been quiet. */
  private checkHealth(session: Session): void {
    if (session !== this.session) return;
    const now = Date.now();
    const timeout = this.options.submitTimeoutMs;
    if (this.status === 'connecting' && now - this.connectStartedAt > timeout) return this.drop(session, 'connect/bind timed out');
    if (this.status !== 'bound') return;
    const oldest = this.inFlight.values().next();
    if (!oldest.done && now - oldest.value.sentAt > timeout) return this.drop(session, 'submit_sm_resp timed out');
    if (this.enquireSentAt !== null && now - this.enquireSentAt > timeout) return this.drop(session, 'enquire_link_resp timed out');
    if (this.enquireSentAt === null && now - this.lastReceivedAt >= this.options.enquireLinkMs) {
      this.enquireSentAt = now;
      session.send(new PDU('enquire_link'), () => (this.enquireSentAt = null));
    }
  }

  /** Ends the session now; 'waiting' at once so nothing more is sent on it before its close event. */
  private drop(session: Session, reason: string): void {
    if (session !== this.session) return;
    this.lastError = reason;
    if (this.status !== 'closed') this.status = 'waiting';
    session.destroy();
  }

  private onClose(session: Session): void {
    if (session !== this.session) return;
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
    this.session = null;
    this.enquireSentAt = null;
    const unanswered = [...this.inFlight.values()].map((entry) => entry.task);
    this.inFlight.clear();
    const reason = this.lastError ?? 'connection closed';
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
