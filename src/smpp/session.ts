/**
 * One SMPP session over a socket, for either side (the carrier's ESME, the simulator's SMSC): it frames
 * the byte stream, numbers the requests it sends and hands each response to the request's own handler by
 * sequence number, keeps a window of unanswered requests, drops the session when a request goes
 * unanswered too long, keeps a quiet link alive with enquire_link, answers the peer's enquire_link and
 * unbind, and answers what its owner does not serve with generic_nack. What a PDU means (bind, submit,
 * deliver) is the owner's business: it gets every other request as octets.
 *
 * Per PDU it makes nothing but the Buffer it writes and, per request, one entry in its map of unanswered
 * requests: the hot path (a submit_sm and its resp, a deliver_sm and its resp) runs for every part.
 */
import type { Socket } from 'node:net';
import { commandName, ENQUIRE_LINK, ENQUIRE_LINK_RESP, GENERIC_NACK, isResponse, STATUS, UNBIND, UNBIND_RESP } from './commands';
import { corkForThisTick } from './cork';
import { encodeHeaderOnly, PduFramer, sequenceAfter } from './pdu';

/** Called with the response to a request (a view valid during the call), or null when the session ended first. */
export type ResponseHandler<C> = (context: C, resp: Buffer | null) => void;

export interface SessionHandler {
  /**
   * A request from the peer other than enquire_link and unbind (which the session answers): the whole PDU
   * (a view valid during the call), its command_id and sequence_number. Returns false when this side does
   * not serve that command: the session answers generic_nack with ESME_RINVCMDID.
   */
  request(pdu: Buffer, commandId: number, sequence: number): boolean;
  /** The peer sent enquire_link: answered unless this returns false (a simulator playing a hung SMSC). */
  enquireLinkReceived?(): boolean | void;
  /** The peer sent unbind (already answered); the session closes next. */
  unbound?(): void;
  /** The socket closed: every unanswered request has had its handler called with null first. */
  closed(reason: string): void;
}

export interface SessionLogger {
  warn(msg: string, meta?: Record<string, unknown>): void;
  error(msg: string, meta?: Record<string, unknown>): void;
}

export interface SessionOptions {
  /** A request unanswered this long means the peer is gone: the session is closed. */
  requestTimeoutMs: number;
  /** While keep-alive is on, send enquire_link after this long without any PDU from the peer. */
  enquireLinkMs: number;
  /**
   * While keep-alive is on: an enquire_link unanswered this long means the peer has stopped answering
   * (it keeps the TCP connection, answers nothing): the session is closed. One is also sent when requests
   * are unanswered and the peer has said nothing for half this long, so a silent peer is found in about
   * 1.5 times this, not after requestTimeoutMs. Default: requestTimeoutMs.
   */
  enquireLinkTimeoutMs?: number;
  /** Most requests sent with request() awaiting their responses at once (Infinity: no cap). */
  window: number;
  logger?: SessionLogger;
}

interface Pending {
  context: unknown;
  onResponse: ResponseHandler<unknown>;
  sentAt: number;
  commandId: number;
  /** Sent with request(), so it counts against the window. */
  windowed: boolean;
}

/** How long close() waits for the peer to close its side before destroying the socket. */
const MAX_CLOSE_WAIT_MS = 5_000;
const silent: SessionLogger = { warn: () => undefined, error: () => undefined };

export class Session {
  private readonly framer = new PduFramer();
  /** Unanswered requests by sequence number, oldest first (a Map iterates in insertion order). */
  private readonly pending = new Map<number, Pending>();
  /** Of `pending`, those sent with request() (control PDUs stay outside the window). */
  private windowed = 0;
  private sequence = 0;
  private lastReceivedAt = Date.now();
  /** When the enquire_link awaiting its answer went out (null: none awaits). */
  private enquireSentAt: number | null = null;
  private readonly enquireLinkTimeoutMs: number;
  private keepingAlive = false;
  private closeReason: string | null = null;
  private ended = false;
  private readonly watchdog: NodeJS.Timeout;
  private readonly logger: SessionLogger;
  private readonly onPdu = (pdu: Buffer): void => this.receive(pdu);

  constructor(
    private readonly socket: Socket,
    private readonly handler: SessionHandler,
    private readonly options: SessionOptions,
  ) {
    this.logger = options.logger ?? silent;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    // Without an 'error' listener a reset connection would crash the process; 'close' follows it.
    socket.on('error', (err: Error) => (this.closeReason ??= err.message));
    socket.on('close', () => this.onClose());
    const { requestTimeoutMs, enquireLinkMs } = options;
    this.enquireLinkTimeoutMs = options.enquireLinkTimeoutMs ?? requestTimeoutMs;
    const tick = Math.min(1000, requestTimeoutMs / 4, enquireLinkMs / 2, this.enquireLinkTimeoutMs / 8);
    this.watchdog = setInterval(() => this.checkHealth(), Math.max(10, tick));
  }

  /** True while writes can go out (not closed, not closing). */
  get writable(): boolean {
    return !this.ended && this.socket.writable;
  }

  /** Requests sent with request() and not yet answered. */
  get inFlight(): number {
    return this.windowed;
  }

  /** True when request() may send another (the window is not full). */
  get hasRoom(): boolean {
    return this.windowed < this.options.window;
  }

  /** Starts (or stops) sending enquire_link when the peer has been quiet for enquireLinkMs: once bound. */
  keepAlive(on: boolean): void {
    this.keepingAlive = on;
  }

  /** The sequence number for the next request (1 to 0x7FFFFFFF, then 1 again). */
  nextSequence(): number {
    this.sequence = sequenceAfter(this.sequence);
    return this.sequence;
  }

  /**
   * Sends a request encoded with a number from nextSequence(); its response goes to `onResponse` with
   * `context`. False (nothing sent) when the window is full or the session no longer writes.
   */
  request<C>(sequence: number, pdu: Buffer, context: C, onResponse: ResponseHandler<C>): boolean {
    if (this.windowed >= this.options.window || !this.writable) return false;
    this.windowed++;
    this.track(sequence, pdu, context, onResponse as ResponseHandler<unknown>, true);
    this.write(pdu);
    return true;
  }

  /** A request that runs the session (bind, unbind): outside the window. */
  control<C>(pdu: Buffer, context: C, onResponse: ResponseHandler<C>): boolean {
    if (!this.writable) return false;
    pdu.writeUInt32BE(this.nextSequence(), 12);
    this.track(this.sequence, pdu, context, onResponse as ResponseHandler<unknown>, false);
    this.write(pdu);
    return true;
  }

  /** Writes a PDU (a response); writes of one tick share one syscall. False when the session no longer writes. */
  write(pdu: Buffer): boolean {
    if (!this.writable) return false;
    corkForThisTick(this.socket);
    this.socket.write(pdu);
    return true;
  }

  /** Answers a request with generic_nack (SMPP 3.4 §4.3): a command this side cannot serve or read. */
  nack(sequence: number, status: number): void {
    this.write(encodeHeaderOnly(GENERIC_NACK, status, sequence));
  }

  /**
   * Sends unbind and closes once it is answered; the watchdog closes the session if the answer does not
   * come within requestTimeoutMs. Resolves when the socket has closed.
   */
  unbind(): Promise<void> {
    const closed = this.whenClosed();
    if (!this.control(encodeHeaderOnly(UNBIND, 0, 0), null, () => this.close('unbound'))) this.close('unbound');
    return closed;
  }

  /** Ends the session now (writes already queued still go out); `reason` is what closed() will say. */
  close(reason: string): void {
    this.closeReason ??= reason;
    if (this.ended) return;
    this.ended = true;
    this.socket.end();
    // A peer that never closes its side must not keep the session open.
    const force = setTimeout(() => this.socket.destroy(), Math.min(this.options.requestTimeoutMs, MAX_CLOSE_WAIT_MS));
    this.socket.once('close', () => clearTimeout(force));
  }

  /** Ends the session at once, dropping anything not yet written (a network failure, a dead peer). */
  destroy(reason: string): void {
    this.closeReason ??= reason;
    this.ended = true;
    this.socket.destroy();
  }

  /** Resolves when the socket has closed. */
  whenClosed(): Promise<void> {
    if (this.socket.closed) return Promise.resolve();
    return new Promise((resolve) => this.socket.once('close', () => resolve()));
  }

  private track(sequence: number, pdu: Buffer, context: unknown, onResponse: ResponseHandler<unknown>, windowed: boolean): void {
    const previous = this.pending.get(sequence);
    // A number still unanswered after 2^31 requests: its request is long dead (the watchdog drops far sooner).
    if (previous) this.settle(sequence, previous, null);
    this.pending.set(sequence, {
      context,
      onResponse,
      sentAt: Date.now(),
      commandId: pdu.readUInt32BE(4),
      windowed,
    });
  }

  private settle(sequence: number, entry: Pending, resp: Buffer | null): void {
    this.pending.delete(sequence);
    if (entry.windowed) this.windowed--;
    entry.onResponse(entry.context, resp);
  }

  private onData(chunk: Buffer): void {
    if (this.ended) return;
    this.lastReceivedAt = Date.now();
    try {
      this.framer.push(chunk, this.onPdu);
    } catch (err) {
      // A length no PDU can have: the stream cannot be read any further (the PDUs framed before it counted).
      this.nack(0, STATUS.ESME_RINVCMDLEN);
      this.close(`unreadable PDU from the peer: ${(err as Error).message}`);
    }
  }

  private receive(pdu: Buffer): void {
    if (this.ended) return;
    const commandId = pdu.readUInt32BE(4);
    const sequence = pdu.readUInt32BE(12);
    try {
      if (isResponse(commandId)) {
        const entry = this.pending.get(sequence);
        if (entry) this.settle(sequence, entry, pdu);
        else this.logger.warn('smpp response to no request', { commandId, sequence });
        return;
      }
      if (commandId === ENQUIRE_LINK) {
        if (this.handler.enquireLinkReceived?.() !== false) this.write(encodeHeaderOnly(ENQUIRE_LINK_RESP, 0, sequence));
      } else if (commandId === UNBIND) {
        this.write(encodeHeaderOnly(UNBIND_RESP, 0, sequence));
        this.handler.unbound?.();
        this.close('unbound by the peer');
      } else if (!this.handler.request(pdu, commandId, sequence)) {
        this.nack(sequence, STATUS.ESME_RINVCMDID);
      }
    } catch (err) {
      // A fault of ours in handling one PDU (not of the peer's bytes): the rest of the chunk still counts.
      this.logger.error('smpp PDU not handled', {
        commandId,
        err: (err as Error).message,
      });
    }
  }

  /**
   * Drops a session whose requests go unanswered, or whose enquire_link does; sends enquire_link when the
   * peer has been quiet (long enough, or half enquireLinkTimeoutMs while requests await answers).
   */
  private checkHealth(): void {
    if (this.ended) return;
    const now = Date.now();
    const oldest = this.pending.values().next();
    if (!oldest.done && now - oldest.value.sentAt > this.options.requestTimeoutMs) {
      this.destroy(`${commandName(oldest.value.commandId)}_resp timed out`);
      return;
    }
    if (this.enquireSentAt !== null) {
      // Timers run before sockets are read: after a stall of this process the answer may be unread yet, so
      // look again once pending input has been read (setImmediate runs after the poll phase).
      if (now - this.enquireSentAt > this.enquireLinkTimeoutMs) setImmediate(() => this.enquireTimedOut());
      return;
    }
    if (!this.keepingAlive) return;
    const quietMs = now - this.lastReceivedAt;
    if (quietMs >= this.options.enquireLinkMs || (this.windowed > 0 && quietMs >= this.enquireLinkTimeoutMs / 2)) {
      const sentAt = now;
      if (this.control(encodeHeaderOnly(ENQUIRE_LINK, 0, 0), this, (session) => (session.enquireSentAt = null))) this.enquireSentAt = sentAt;
    }
  }

  private enquireTimedOut(): void {
    if (this.ended || this.enquireSentAt === null || Date.now() - this.enquireSentAt <= this.enquireLinkTimeoutMs) return;
    this.destroy(`enquire_link_resp timed out after ${this.enquireLinkTimeoutMs} ms: the SMSC stopped answering`);
  }

  private onClose(): void {
    clearInterval(this.watchdog);
    this.ended = true;
    for (const [sequence, entry] of [...this.pending]) this.settle(sequence, entry, null);
    this.handler.closed(this.closeReason ?? 'connection closed');
  }
}
