import { Injectable } from '@nestjs/common';
import { failure } from '../common/errors/error-catalogue';
import { ActiveSenders } from './active-senders';
import { RECEIVING_TYPES } from './receiving-number-lock';
import { Sender, SenderType } from './sender.entity';
import { parseSenderValue } from './sender-value';
import { SendersRepository } from './senders.repository';
import { SenderView, toSenderView } from './senders.mapper';
import { Tx, UnitOfWork } from '../database/unit-of-work';

@Injectable()
export class SendersService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly senders: SendersRepository,
  ) {}

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

  /**
   * Adds or re-activates a sender (operator paths: account:create, sender:add). A dedicated number active
   * on another account (as dedicated or shared) or assigned to another account in the inventory is
   * refused, and so is sharing another account's dedicated number: replies go to the accounts a number is
   * active on, so a second account would take the first one's replies. Nothing is written when refused.
   */
  async add(accountId: number, input: string, type?: SenderType, tx?: Tx): Promise<Sender> {
    return (await this.addAll(accountId, [input], type, tx))[0];
  }

  /** Several senders at once, all or nothing; receiving numbers are locked in one order, so two such adds never deadlock. */
  async addAll(accountId: number, inputs: readonly string[], type?: SenderType, tx?: Tx): Promise<Sender[]> {
    const parsed = inputs.map((input) => {
      const p = parseSenderValue(input, type);
      if ('error' in p) throw failure('invalidField', p.error);
      return p;
    });
    if (parsed.length === 0) return [];
    return this.uow.runIn(tx, async (m) => {
      const receiving = [...new Set(parsed.filter((p) => isReceiving(p.type)).map((p) => p.value))].sort();
      for (const value of receiving) await this.senders.lockReceivingNumber(value, m);
      const added: Sender[] = [];
      for (const p of parsed) {
        if (isReceiving(p.type)) await this.refuseIfTakenElsewhere(accountId, p.value, p.type, m);
        added.push(await this.senders.upsertActive(accountId, p.value, p.type, m));
      }
      return added;
    });
  }

  /** Under the number's lock: another account's dedicated number (or, for a dedicated one, another's shared) is not this account's to take. */
  private async refuseIfTakenElsewhere(accountId: number, value: string, type: SenderType, tx: Tx): Promise<void> {
    const holder = await this.senders.activeElsewhere(accountId, value, type === 'dedicated' ? ['dedicated', 'shared'] : ['dedicated'], tx);
    if (holder) throw failure('receivingNumberTaken', value, holder.accountId, holder.type);
    const assignedTo = await this.senders.assignedElsewhere(accountId, value, tx);
    if (assignedTo !== null) throw failure('receivingNumberAssigned', value, assignedTo);
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

function isReceiving(type: SenderType): boolean {
  return (RECEIVING_TYPES as readonly SenderType[]).includes(type);
}
