import type { SenderType } from '../../../src/common/sms';
import type { SendersService } from '../../../src/senders/senders.service';
import { expectAccount } from './strict';

/** SendersService.activeTypes for one account: its active senders and their types. */
export class FakeSendersService implements Pick<SendersService, 'activeTypes'> {
  constructor(
    private readonly accountId: number,
    private readonly senders: Record<string, SenderType>,
  ) {}

  async activeTypes(accountId: number): Promise<Map<string, SenderType>> {
    expectAccount('SendersService.activeTypes', this.accountId, accountId);
    return new Map(Object.entries(this.senders));
  }
}
