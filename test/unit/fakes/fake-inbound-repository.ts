import type { Tx } from '../../../src/database/unit-of-work';
import type { InboundRepository } from '../../../src/inbound/inbound.repository';
import { openTx } from './fake-unit-of-work';
import { UnexpectedCall } from './strict';

export type InboundInsert = Parameters<InboundRepository['insert']>[0];

/** An outbound message as far as reply correlation cares: who sent it, from which number, to which mobile. */
export interface SentMessage {
  account_id: number;
  id: string;
  custom_ref: string | null;
  sender: string;
  to: string;
}

/**
 * The inbound repository over a fixed world: receiving numbers and their owners (oldest sender first),
 * and the outbound messages in the order they were sent. Stores replies inside the open transaction.
 */
export class FakeInboundRepository implements Pick<InboundRepository, 'ownersOfNumber' | 'lastOutbound' | 'insert' | 'firstReceivingNumber'> {
  readonly stored: InboundInsert[] = [];
  readonly ownerLookups: string[] = [];
  readonly outboundLookups: Array<{ accountIds: number[]; sender: string; mobile: string }> = [];

  constructor(
    private readonly numbers: Record<string, number[]>,
    private readonly sent: SentMessage[] = [],
  ) {}

  async ownersOfNumber(number: string): Promise<number[]> {
    this.ownerLookups.push(number);
    return [...(this.numbers[number] ?? [])];
  }

  async lastOutbound(accountIds: number[], sender: string, mobile: string): Promise<{ account_id: number; id: string; custom_ref: string | null } | null> {
    if (accountIds.length === 0) throw new UnexpectedCall('InboundRepository.lastOutbound', 'asked about no accounts');
    this.outboundLookups.push({ accountIds: [...accountIds], sender, mobile });
    const last = this.sent.filter((m) => m.sender === sender && m.to === mobile && accountIds.includes(m.account_id)).at(-1);
    return last ? { account_id: last.account_id, id: last.id, custom_ref: last.custom_ref } : null;
  }

  async insert(row: InboundInsert, tx: Tx): Promise<void> {
    const open = openTx('InboundRepository.insert', tx);
    this.stored.push(row);
    open.onRollback(() => this.stored.splice(this.stored.indexOf(row), 1));
  }

  async firstReceivingNumber(accountId: number): Promise<string | null> {
    return Object.entries(this.numbers).find(([, owners]) => owners.includes(accountId))?.[0] ?? null;
  }
}
