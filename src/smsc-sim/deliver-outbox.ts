/**
 * deliver_sm the simulator owes an ESME (receipts and mobile-originated messages), delivered as an SMSC
 * does: to the preferred session if it is still bound, else to any receiving session of the same
 * system_id, else kept until one binds; redelivered after a refusal or a lost connection until the
 * ESME answers ESME_ROK.
 */
import { ESME_ROK } from '../smpp/commands';
import type { SimLogger, SimSession } from './sim-types';

export interface OutboxItem {
  kind: 'receipt' | 'mo';
  systemId: string;
  preferredSessionId: number | null;
  /** The deliver_sm's bytes under a given sequence number (made again for each attempt). */
  encode(sequence: number): Buffer;
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
    // null: the session closed first; sessionClosed re-sends what it had in flight.
    const answered = (sent: OutboxItem, resp: Buffer | null): void => {
      if (resp === null || !inFlight.delete(sent)) return;
      const status = resp.readUInt32BE(8);
      if (status === ESME_ROK) return sent.onAck();
      sent.onRefused(status);
      this.retryLater(sent);
    };
    const session = target.session;
    const sequence = session.nextSequence();
    if (!session.request(sequence, item.encode(sequence), item, answered)) {
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
      if (!receives || !s.session.writable) continue;
      if (s.id === item.preferredSessionId) return s;
      fallback ??= s;
    }
    return fallback;
  }
}
