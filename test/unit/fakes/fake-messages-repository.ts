import type { Tx } from '../../../src/database/unit-of-work';
import type { MessageStatus } from '../../../src/messaging/message.entity';
import type { CancelledMessageRecord, CancelMatch } from '../../../src/delivery/state/cancels.repository';
import type { UnclaimedCancellation } from '../../../src/delivery/state/unclaimed-cancellation.service';
import type { MessagesRepository, NewMessage } from '../../../src/messaging/messages.repository';
import { openTx } from './fake-unit-of-work';
import { Journal } from './journal';
import { UnexpectedCall } from './strict';

export interface StoredMessage {
  id: string;
  accountId: number;
  sendId: number;
  to: string;
  sender: string;
  body: string;
  customRef: string | null;
  status: MessageStatus;
  cost: number;
  parts: number;
  isTest: boolean;
  /** Taken by a dispatcher (at or before its send's dispatch watermark). */
  dispatched: boolean;
}

type Match = CancelMatch;

/**
 * The messages table in memory, with the repository methods the messaging services call (and the claim
 * protocol's cancels, UnclaimedCancellation, over the same rows). Writes happen
 * inside the open FakeTx and are undone if it rolls back; the cancel methods keep the real conditions
 * (scheduled or pending, not yet dispatched).
 */
export class FakeMessagesRepository
  implements Pick<MessagesRepository, 'insertMany' | 'insertSlices' | 'statusOf' | 'sendExists'>, Pick<UnclaimedCancellation, 'cancelScheduled' | 'cancelUnsentToRecipient'>
{
  readonly messages: StoredMessage[] = [];
  /** Each insertMany call as made. */
  readonly inserts: Array<{ accountId: number; sendId: number; isTest: boolean; rows: NewMessage[] }> = [];
  /** Each cancelScheduled match, in order. */
  readonly cancelMatches: Match[] = [];
  private readonly sends = new Set<string>();
  private insertFailure?: unknown;

  constructor(private readonly journal = new Journal()) {}

  /** The next insertMany throws this, as a failing statement would. */
  failInsertsWith(err: unknown): this {
    this.insertFailure = err;
    return this;
  }

  /** A message as an earlier request left it. */
  seed(message: Partial<StoredMessage> & Pick<StoredMessage, 'id' | 'accountId' | 'sendId' | 'status'>): StoredMessage {
    const stored: StoredMessage = { to: '61412345678', sender: 'Acme', body: 'Hello', customRef: null, cost: 100, parts: 1, isTest: false, dispatched: false, ...message };
    this.messages.push(stored);
    this.sends.add(`${stored.accountId}:${stored.sendId}`);
    return stored;
  }

  /** A send that exists but holds no messages of interest. */
  seedSend(accountId: number, sendId: number): void {
    this.sends.add(`${accountId}:${sendId}`);
  }

  statusById(id: string): MessageStatus | undefined {
    return this.messages.find((m) => m.id === id)?.status;
  }

  async insertMany(accountId: number, sendId: number, isTest: boolean, rows: NewMessage[], tx: Tx, whileStoring?: () => Promise<void>): Promise<void> {
    this.journal.record('messages.insertMany');
    await this.store(accountId, sendId, isTest, rows, tx, whileStoring);
  }

  /**
   * As the repository: every slice asked for in turn, stored as one insert, in order (every slice is made
   * before a failure set by failInsertsWith is thrown; the repository stops at the slice refused).
   */
  async insertSlices(accountId: number, sendId: number, isTest: boolean, nextSlice: () => NewMessage[] | null, tx: Tx, whileStoring?: () => Promise<void>): Promise<NewMessage[]> {
    this.journal.record('messages.insertSlices');
    const rows: NewMessage[] = [];
    for (let slice = nextSlice(); slice !== null; slice = nextSlice()) rows.push(...slice);
    await this.store(accountId, sendId, isTest, rows, tx, whileStoring);
    return rows;
  }

  private async store(accountId: number, sendId: number, isTest: boolean, rows: NewMessage[], tx: Tx, whileStoring?: () => Promise<void>): Promise<void> {
    const open = openTx('MessagesRepository.insertMany', tx);
    if (this.insertFailure !== undefined) throw this.insertFailure;
    this.inserts.push({ accountId, sendId, isTest, rows });
    const added = rows.map((r) =>
      this.seed({ id: r.id, accountId, sendId, to: r.to, sender: r.sender, body: r.body, customRef: r.customRef, status: r.status, cost: r.cost, parts: r.parts, isTest }),
    );
    open.onRollback(() => added.forEach((m) => this.messages.splice(this.messages.indexOf(m), 1)));
    // As the repository's COPY: the caller's work runs once the rows are written, before they are stored.
    if (rows.length > 0) await whileStoring?.();
  }

  async statusOf(accountId: number, messageId: string, tx: Tx): Promise<MessageStatus | null> {
    openTx('MessagesRepository.statusOf', tx);
    return this.messages.find((m) => m.accountId === accountId && m.id === messageId)?.status ?? null;
  }

  async sendExists(accountId: number, sendId: number, tx: Tx): Promise<boolean> {
    openTx('MessagesRepository.sendExists', tx);
    return this.sends.has(`${accountId}:${sendId}`);
  }

  async cancelScheduled(accountId: number, match: Match, tx: Tx): Promise<CancelledMessageRecord[]> {
    const open = openTx('MessagesRepository.cancelScheduled', tx);
    if (Object.keys(match).length !== 1) throw new UnexpectedCall('MessagesRepository.cancelScheduled', `match on one identifier, got ${JSON.stringify(match)}`);
    this.cancelMatches.push(match);
    const matches = (m: StoredMessage) => ('messageId' in match ? m.id === match.messageId : 'sendId' in match ? m.sendId === match.sendId : m.customRef === match.customRef);
    return this.cancel(open, (m) => m.accountId === accountId && matches(m) && m.status === 'scheduled' && !m.dispatched);
  }

  async cancelUnsentToRecipient(accountId: number, number: string, tx: Tx): Promise<CancelledMessageRecord[]> {
    const open = openTx('MessagesRepository.cancelUnsentToRecipient', tx);
    return this.cancel(open, (m) => m.accountId === accountId && m.to === number && (m.status === 'scheduled' || m.status === 'pending') && !m.dispatched);
  }

  private cancel(tx: ReturnType<typeof openTx>, which: (m: StoredMessage) => boolean): CancelledMessageRecord[] {
    const hit = this.messages.filter(which);
    for (const m of hit) {
      const before = m.status;
      m.status = 'cancelled';
      tx.onRollback(() => (m.status = before));
    }
    return hit.map((m) => ({ id: m.id, cost: m.cost, parts: m.parts, to: m.to, sender: m.sender, body: m.body, customRef: m.customRef }));
  }
}
