import { Injectable } from '@nestjs/common';
import { failure } from '../common/errors/error-catalogue';
import { ActiveSenders } from './active-senders';
import { Sender, SenderType } from './sender.entity';
import { parseSenderValue } from './sender-value';
import { SendersRepository } from './senders.repository';
import { SenderView, toSenderView } from './senders.mapper';
import { Tx } from '../database/unit-of-work';

@Injectable()
export class SendersService {
  constructor(private readonly senders: SendersRepository) {}

  async listActive(accountId: number): Promise<{ status: 'complete'; results: SenderView[] }> {
    const senders = await this.senders.findActive(accountId);
    return { status: 'complete', results: senders.map(toSenderView) };
  }

  /** The account's active senders, for matching a send's `sender` (numbers in any form, IDs exactly). */
  async active(accountId: number, tx?: Tx): Promise<ActiveSenders> {
    return new ActiveSenders(new Map((await this.senders.findActive(accountId, tx)).map((s) => [s.value, s.type])));
  }

  /** Active and pending senders, for the Sender IDs page. */
  async current(accountId: number): Promise<Sender[]> {
    return this.senders.findCurrent(accountId);
  }

  async add(accountId: number, input: string, type?: SenderType, manager?: Tx): Promise<Sender> {
    const parsed = parseSenderValue(input, type);
    if ('error' in parsed) throw failure('invalidField', parsed.error);
    return this.senders.upsertActive(accountId, parsed.value, parsed.type, manager);
  }

  async remove(accountId: number, input: string): Promise<boolean> {
    const parsed = parseSenderValue(input);
    return this.senders.markRemoved(accountId, 'error' in parsed ? input.trim() : parsed.value);
  }

  /** The account's sender with this stored value, whatever its status, locked until the transaction ends. */
  async lockByValue(accountId: number, value: string, tx: Tx): Promise<Sender | null> {
    return this.senders.findByValueForUpdate(accountId, value, tx);
  }

  async lockById(accountId: number, senderId: number, tx: Tx): Promise<Sender | null> {
    return this.senders.findByIdForUpdate(accountId, senderId, tx);
  }

  async byId(senderId: number, tx?: Tx): Promise<Sender | null> {
    return this.senders.findById(senderId, tx);
  }

  /** Active with this type (an approved Sender ID, a dedicated number), whatever it was before. */
  async activate(accountId: number, value: string, type: SenderType, label: string, tx: Tx): Promise<Sender> {
    return this.senders.activate(accountId, value, type, label, tx);
  }

  async makePendingOwn(accountId: number, number: string, label: string, tx: Tx): Promise<Sender> {
    return this.senders.makePendingOwn(accountId, number, label, tx);
  }

  async activatePendingOwn(senderId: number, tx: Tx): Promise<boolean> {
    return this.senders.activatePendingOwn(senderId, tx);
  }

  async deactivate(senderId: number, tx: Tx): Promise<void> {
    await this.senders.markRemovedById(senderId, tx);
  }
}
