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
  async active(accountId: number): Promise<ActiveSenders> {
    return new ActiveSenders(new Map((await this.senders.findActive(accountId)).map((s) => [s.value, s.type])));
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
}
