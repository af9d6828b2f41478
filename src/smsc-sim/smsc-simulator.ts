/**
 * An SMSC on loopback for tests and benchmarks, speaking SMPP through src/smpp's Session. It binds one
 * system_id/password, accepts submit_sm with unique message ids, sends a receipt for each after
 * receiptDelayMs (UNDELIV for destinations ending with failSuffix, as the interface's test numbers
 * ending in 000 fail), and records every submit_sm with its raw octets. Controls let tests throttle,
 * drop connections, inject mobile-originated messages and reorder receipts; `faults` (sim-faults.ts) refuses
 * binds, answers a share of submits with an error, and limits receipts to first parts or none. Every
 * instance is independent: several run side by side as several carriers.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import tls from 'node:tls';
import { BIND_RECEIVER, BIND_TRANSCEIVER, BIND_TRANSMITTER, ESME_ROK, ESME_RTHROTTLED, STATUS, SUBMIT_SM, SUBMIT_SM_RESP } from '../smpp/commands';
import { encodeHeaderOnly } from '../smpp/pdu';
import { Session } from '../smpp/session';
import { decodeBind, encodeBindResp } from '../smpp/session-pdus';
import { parseShortMessageBody, sourceAddrTonOf } from '../smpp/short-message-reader';
import type { ShortMessageFields } from '../smpp/short-message-reader';
import { encodeMoDeliverSm, encodeReceiptDeliverSm, encodeSubmitSmResp } from '../smpp/smsc-pdus';
import type { MoDeliverSm, ReceiptDeliverSm } from '../smpp/smsc-pdus';
import { DeliverOutbox } from './deliver-outbox';
import type { OutboxItem } from './deliver-outbox';
import { SimFaults } from './sim-faults';
import { moDeliverSm, receiptDeliverSm, submitRecord } from './sim-pdus';
import type { BindMode, MoRequest, SimCounters, SimLogger, SimSession, SimSessionStats, SmscSimulatorOptions, SubmitRecord } from './sim-types';

const BIND_MODES: Readonly<Record<number, BindMode>> = {
  [BIND_TRANSCEIVER]: 'transceiver',
  [BIND_TRANSMITTER]: 'transmitter',
  [BIND_RECEIVER]: 'receiver',
};
/** The system_id the simulator answers binds with. */
const SMSC_SYSTEM_ID = 'SMSCSIM';
const silent: SimLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const zeroCounters = (): SimCounters => ({
  connections: 0,
  binds: 0,
  bindFailures: 0,
  bindsRefused: 0,
  submits: 0,
  refused: 0,
  throttled: 0,
  receiptsSent: 0,
  receiptsAcked: 0,
  deliversRefused: 0,
  moSent: 0,
  moAcked: 0,
  enquireLinks: 0,
});

export class SmscSimulator {
  /** Every submit_sm received, in arrival order (throttled ones too, with smscId null). */
  submits: SubmitRecord[] = [];
  counters: SimCounters = zeroCounters();
  /** Faults injected on demand (binds refused, shares of submit errors, receipt modes). */
  readonly faults = new SimFaults();
  /**
   * Called with each accepted submit_sm before its answer is written (main.ts --journal): whatever the
   * gateway was told was accepted has been seen here first, even when the process is killed right after.
   */
  onAccepted: ((record: SubmitRecord) => void) | null = null;
  private readonly options: Required<Omit<SmscSimulatorOptions, 'logger' | 'tls'>>;
  private readonly tls: SmscSimulatorOptions['tls'];
  private readonly logger: SimLogger;
  private server: Server | null = null;
  private readonly sessions = new Map<number, SimSession>();
  private readonly outbox: DeliverOutbox;
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Receipts to queue, by the epoch millisecond they are due. */
  private readonly receiptsDue = new Map<number, Array<() => void>>();
  private nextSessionId = 1;
  private nextMessageId = 1;
  private ignoring = false;
  private held: OutboxItem[] | null = null;
  /** maxUnanswered of sessions already closed (they leave `sessions`). */
  private closedPeaks: number[] = [];
  private readonly startRespDelayMs: number;

  constructor(options: SmscSimulatorOptions) {
    this.options = {
      port: options.port ?? 0,
      host: options.host ?? '127.0.0.1',
      systemId: options.systemId,
      password: options.password,
      receiptDelayMs: options.receiptDelayMs ?? 1000,
      failSuffix: options.failSuffix ?? '000',
      respDelayMs: options.respDelayMs ?? 0,
      receiptBeforeResp: options.receiptBeforeResp ?? false,
      deliverRetryMs: options.deliverRetryMs ?? 1000,
      messageIdPrefix: options.messageIdPrefix ?? randomBytes(2).toString('hex'),
    };
    this.startRespDelayMs = this.options.respDelayMs;
    this.tls = options.tls;
    this.logger = options.logger ?? silent;
    this.outbox = new DeliverOutbox(
      () => this.sessions.values(),
      () => this.options.deliverRetryMs,
      this.logger,
    );
  }

  /** Listens on host:port and resolves with the port. */
  start(): Promise<number> {
    this.outbox.open();
    const listener = (socket: Socket): void => this.accept(socket);
    const server = this.tls ? tls.createServer(this.tls, listener) : net.createServer(listener);
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.port, this.options.host, () => {
        server.off('error', reject);
        resolve((server.address() as AddressInfo).port);
      });
    });
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.receiptsDue.clear();
    this.outbox.stop();
    const server = this.server;
    this.server = null;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    this.dropConnections();
    await closed;
  }

  /** Forgets recorded submits, counters and per-session peaks; keeps sessions and settings. */
  reset(): void {
    this.submits = [];
    this.counters = zeroCounters();
    this.closedPeaks = [];
    for (const s of this.sessions.values()) {
      s.submits = 0;
      s.maxUnanswered = s.unanswered;
    }
  }

  /** Answers the next n submit_sm with ESME_RTHROTTLED. */
  throttleNext(n: number): void {
    this.failNext(n, ESME_RTHROTTLED);
  }

  /** Answers the next n submit_sm with `status` (after any refusals already queued). */
  failNext(n: number, status: number): void {
    this.faults.queueRefusals(n, status);
  }

  /** Every fault off: binds accepted, submits answered (at the start-up delay) and accepted, receipts for every part. */
  clearFaults(): void {
    this.faults.clear();
    this.ignoring = false;
    this.options.respDelayMs = this.startRespDelayMs;
  }

  /** The faults in force now, with the answering ones kept outside `faults`. */
  faultSettings() {
    return { ...this.faults.settings(), ignoreSubmits: this.ignoring, respDelayMs: this.options.respDelayMs };
  }

  /** While on, submit_sm are recorded but never answered (a hung SMSC), and get no receipt; enquire_link goes unanswered too. */
  ignoreSubmits(on: boolean): void {
    this.ignoring = on;
  }

  /** Destroys every connection now, as a network failure would. */
  dropConnections(): void {
    for (const s of this.sessions.values()) s.session.destroy('connection dropped by the simulator');
  }

  setReceiptDelay(ms: number): void {
    this.options.receiptDelayMs = ms;
  }

  /** Delay before each submit_sm_resp from now on (0: answer at once). */
  setRespDelay(ms: number): void {
    this.options.respDelayMs = ms;
  }

  setReceiptBeforeResp(on: boolean): void {
    this.options.receiptBeforeResp = on;
  }

  /** While held, due receipts wait; releasing sends them all. */
  holdReceipts(hold: boolean): void {
    if (hold) {
      this.held ??= [];
      return;
    }
    const held = this.held ?? [];
    this.held = null;
    for (const item of held) this.outbox.send(item);
  }

  sessionStats(): SimSessionStats[] {
    return [...this.sessions.values()].map((s) => ({
      sessionId: s.id,
      systemId: s.systemId,
      bound: s.mode !== null && !s.closed,
      submits: s.submits,
      maxUnanswered: s.maxUnanswered,
    }));
  }

  /** Most submit_sm unanswered at once on any one session so far. */
  maxUnansweredPerSession(): number {
    return Math.max(0, ...[...this.sessions.values()].map((s) => s.maxUnanswered), ...this.closedPeaks);
  }

  /** Sends a mobile-originated deliver_sm; resolves when the ESME acknowledges it with ESME_ROK. */
  injectMo(mo: MoRequest): Promise<void> {
    return new Promise((resolve) => {
      this.outbox.send({
        kind: 'mo',
        systemId: this.options.systemId,
        preferredSessionId: null,
        encode: encodeMoWith(moDeliverSm(mo)),
        attempts: 0,
        onSent: () => this.counters.moSent++,
        onAck: () => {
          this.counters.moAcked++;
          resolve();
        },
        onRefused: () => this.counters.deliversRefused++,
      });
    });
  }

  private accept(socket: Socket): void {
    const id = this.nextSessionId++;
    // An SMSC does not keep the link alive itself, and gives an ESME all the time it takes to answer a deliver_sm.
    const session = new Session(
      socket,
      {
        request: (pdu, commandId, sequence) => this.request(sim, pdu, commandId, sequence),
        // A hung SMSC answers nothing, enquire_link included (the TCP connection stays open).
        enquireLinkReceived: () => {
          this.counters.enquireLinks++;
          return !this.ignoring;
        },
        unbound: () => (sim.mode = null),
        closed: (reason) => {
          sim.closed = true;
          this.closedPeaks.push(sim.maxUnanswered);
          this.sessions.delete(sim.id);
          this.outbox.sessionClosed(sim.id);
          if (reason !== 'connection closed') this.logger.warn('session closed', { sessionId: id, reason });
        },
      },
      { requestTimeoutMs: Infinity, enquireLinkMs: Infinity, window: Infinity, logger: this.logger },
    );
    const sim: SimSession = { id, session, systemId: null, mode: null, submits: 0, unanswered: 0, maxUnanswered: 0, closed: false };
    this.sessions.set(id, sim);
    this.counters.connections++;
  }

  private request(sim: SimSession, pdu: Buffer, commandId: number, sequence: number): boolean {
    if (commandId === SUBMIT_SM) this.submit(sim, pdu, sequence);
    else if (BIND_MODES[commandId] !== undefined) this.bind(sim, pdu, commandId, sequence);
    else return false;
    return true;
  }

  private bind(sim: SimSession, pdu: Buffer, commandId: number, sequence: number): void {
    const session = sim.session;
    if (sim.mode !== null) {
      session.write(encodeBindResp(commandId, sequence, STATUS.ESME_RALYBND, SMSC_SYSTEM_ID));
      return;
    }
    if (this.faults.refuseBindsWith !== ESME_ROK) {
      this.counters.bindsRefused++;
      session.write(encodeBindResp(commandId, sequence, this.faults.refuseBindsWith, SMSC_SYSTEM_ID));
      session.close('bind refused (fault injected)');
      return;
    }
    let credentials: { systemId: string; password: string };
    try {
      credentials = decodeBind(pdu);
    } catch {
      session.nack(sequence, STATUS.ESME_RINVCMDLEN);
      return;
    }
    if (credentials.systemId !== this.options.systemId || credentials.password !== this.options.password) {
      this.counters.bindFailures++;
      this.logger.warn('bind refused', { sessionId: sim.id, systemId: credentials.systemId });
      session.write(encodeBindResp(commandId, sequence, STATUS.ESME_RBINDFAIL, SMSC_SYSTEM_ID));
      session.close('bind refused');
      return;
    }
    sim.systemId = this.options.systemId;
    sim.mode = BIND_MODES[commandId];
    this.counters.binds++;
    session.write(encodeBindResp(commandId, sequence, ESME_ROK, SMSC_SYSTEM_ID));
    this.outbox.flushWaiting();
  }

  private submit(sim: SimSession, pdu: Buffer, sequence: number): void {
    const session = sim.session;
    if (sim.mode === null || sim.mode === 'receiver') {
      session.write(encodeHeaderOnly(SUBMIT_SM_RESP, STATUS.ESME_RINVBNDSTS, sequence));
      return;
    }
    let fields: ShortMessageFields;
    let sourceAddrTon: number;
    try {
      const body = pdu.subarray(4);
      fields = parseShortMessageBody(body);
      sourceAddrTon = sourceAddrTonOf(body);
    } catch {
      // A body that runs past its own command_length.
      session.nack(sequence, STATUS.ESME_RINVCMDLEN);
      return;
    }
    const refusal = this.faults.nextSubmitRefusal();
    const smscId = refusal === undefined ? `${this.options.messageIdPrefix}${(this.nextMessageId++).toString(16).padStart(8, '0')}` : null;
    const record = submitRecord(fields, sourceAddrTon, sim.id, smscId, refusal ?? ESME_ROK);
    this.submits.push(record);
    sim.submits++;
    if (refusal === undefined) {
      this.counters.submits++;
      this.onAccepted?.(record);
    } else {
      this.counters.refused++;
      if (refusal === ESME_RTHROTTLED) this.counters.throttled++;
    }
    if (this.ignoring) return;

    sim.unanswered++;
    sim.maxUnanswered = Math.max(sim.maxUnanswered, sim.unanswered);
    const respond = (): void => {
      sim.unanswered--;
      session.write(smscId ? encodeSubmitSmResp(sequence, smscId) : encodeHeaderOnly(SUBMIT_SM_RESP, record.commandStatus, sequence));
    };
    const wantsReceipt = smscId !== null && (record.registeredDelivery & 0x03) !== 0 && this.faults.receiptFor(record.udh);
    if (wantsReceipt && this.options.receiptBeforeResp) {
      this.queueReceipt(sim, record);
      this.later(Math.max(this.options.respDelayMs, 20), respond);
      return;
    }
    if (this.options.respDelayMs > 0) this.later(this.options.respDelayMs, respond);
    else respond();
    if (wantsReceipt) this.receiptLater(() => this.queueReceipt(sim, record));
  }

  private queueReceipt(sim: SimSession, record: SubmitRecord): void {
    const smscId = record.smscId as string;
    const delivered = !record.destinationAddr.endsWith(this.options.failSuffix);
    const item: OutboxItem = {
      kind: 'receipt',
      systemId: this.options.systemId,
      preferredSessionId: sim.id,
      attempts: 0,
      // Made now (its done date is when it was queued, as before a hold or a redelivery); numbered when sent.
      encode: encodeWith(receiptDeliverSm(record, smscId, delivered)),
      onSent: () => this.counters.receiptsSent++,
      onAck: () => this.counters.receiptsAcked++,
      onRefused: () => this.counters.deliversRefused++,
    };
    if (this.held) this.held.push(item);
    else this.outbox.send(item);
  }

  /**
   * Runs `fn` when a receipt is due (receiptDelayMs from now). Receipts due in the same millisecond share
   * one timer: at campaign rates that is a few dozen per timer, not one each.
   */
  private receiptLater(fn: () => void): void {
    const due = Date.now() + this.options.receiptDelayMs;
    const waiting = this.receiptsDue.get(due);
    if (waiting) {
      waiting.push(fn);
      return;
    }
    const batch = [fn];
    this.receiptsDue.set(due, batch);
    this.later(this.options.receiptDelayMs, () => {
      this.receiptsDue.delete(due);
      for (const queued of batch) queued();
    });
  }

  private later(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.add(timer);
  }
}

function encodeWith(receipt: ReceiptDeliverSm): (sequence: number) => Buffer {
  return (sequence) => encodeReceiptDeliverSm(sequence, receipt);
}

function encodeMoWith(mo: MoDeliverSm): (sequence: number) => Buffer {
  return (sequence) => encodeMoDeliverSm(sequence, mo);
}
