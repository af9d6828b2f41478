import type { SenderType } from '../../../src/common/sms';
import { ActiveSenders } from '../../../src/senders/active-senders';
import type { SendersService } from '../../../src/senders/senders.service';
import { expectAccount } from './strict';

/** SendersService.active for one account: its active senders (stored values) and their types. */
export class FakeSendersService implements Pick<SendersService, 'active'> {
  constructor(
    private readonly accountId: number,
    private readonly senders: Record<string, SenderType>,
  ) {}

  async active(accountId: number): Promise<ActiveSenders> {
    expectAccount('SendersService.active', this.accountId, accountId);
    return new ActiveSenders(new Map(Object.entries(this.senders)));
  }
}
