/**
 * deliver_sm the simulator owes an ESME (receipts and mobile-originated messages), delivered as an SMSC
 * does: to the preferred session if it is still bound, else to any receiving session of the same
 * system_id, else kept until one binds; redelivered after a refusal or a lost connection until the
 * ESME answers ESME_ROK.
 */
import { ESME_ROK, PDU } from 'smpp';
import type { Session } from 'smpp';
import { corkForThisTick } from '../smpp/cork';
import { MAX_SEQUENCE } from '../smpp/pdu';
import type { SimLogger, SimSession } from './sim-types';

export interface OutboxItem {
  kind: 'receipt' | 'mo';
  systemId: string;
  preferredSessionId: number | null;
  /** The deliver_sm: its fields for the package to encode, or its bytes under a given sequence number (receipts: one per message). */
  pdu: { fields: Record<string, unknown> } | { encode(sequence: number): Buffer };
  attempts: number;
  /** Called once, when the ESME acknowledges it with ESME_ROK. */
  onAck(): void;
  /** Called on every attempt that was sent (for counters). */
  onSent(): void;
  onRefused(status: number): void;
}

export class DeliverOutbox {
  private readonly waiting: OutboxItem[] = [];
  private readonly inFlight = new Map<number, Set<OutboxItem>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly sessions: () => Iterable<SimSession>,
    private readonly retryMs: () => number,
    private readonly logger: SimLogger,
  ) {}

  send(item: OutboxItem): void {
    if (this.stopped) return;
    const target = this.route(item);
    if (!target) {
      this.waiting.push(item);
      return;
    }
    item.attempts++;
    let pending = this.inFlight.get(target.id);
    if (!pending) this.inFlight.set(target.id, (pending = new Set()));
    const inFlight = pending;
    inFlight.add(item);
    const answered = (resp: PDU): void => {
      if (!inFlight.delete(item)) return; // the session closed first and the item was already re-sent
      if (resp.command_status === ESME_ROK) return item.onAck();
      item.onRefused(resp.command_status);
      this.retryLater(item);
    };
    const sent = 'fields' in item.pdu ? target.session.send(new PDU('deliver_sm', { ...item.pdu.fields }), answered) : sendEncoded(target.session, item.pdu.encode, answered);
    if (!sent) {
      inFlight.delete(item);
      this.retryLater(item);
      return;
    }
    item.onSent();
  }

  /** A session ended: what it had not acknowledged goes out again. */
  sessionClosed(sessionId: number): void {
    const pending = this.inFlight.get(sessionId);
    this.inFlight.delete(sessionId);
    for (const item of pending ?? []) this.retryLater(item);
  }

  /** A session bound: send what was waiting for one. */
  flushWaiting(): void {
    for (const item of this.waiting.splice(0)) this.send(item);
  }

  /** Accepts work again after stop(). */
  open(): void {
    this.stopped = false;
  }

  /** Drops everything owed and stops retrying (the simulator is stopping). */
  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.waiting.length = 0;
    this.inFlight.clear();
  }

  private retryLater(item: OutboxItem): void {
    if (this.stopped) return;
    this.logger.info('deliver_sm to be redelivered', { kind: item.kind, attempts: item.attempts });
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.send(item);
    }, this.retryMs());
    this.timers.add(timer);
  }

  private route(item: OutboxItem): SimSession | null {
    let fallback: SimSession | null = null;
    for (const s of this.sessions()) {
      const receives = !s.closed && s.systemId === item.systemId && (s.mode === 'transceiver' || s.mode === 'receiver');
      if (!receives || !s.session.socket.writable) continue;
      if (s.id === item.preferredSessionId) return s;
      fallback ??= s;
    }
    return fallback;
  }
}

/**
 * Writes a PDU encoded here as session.send writes the package's: numbered from the session's own
 * counter, its resp handed to `answered` by the session (it reads every PDU), writes of one tick corked.
 * False, as session.send, when the socket no longer takes writes.
 */
function sendEncoded(session: Session, encode: (sequence: number) => Buffer, answered: (resp: PDU) => void): boolean {
  if (!session.socket.writable) return false;
  const sequence = session.sequence === MAX_SEQUENCE ? 1 : session.sequence + 1;
  const bytes = encode(sequence);
  session.sequence = sequence;
  session._callbacks[sequence] = answered;
  corkForThisTick(session.socket);
  session.socket.write(bytes);
  return true;
}
