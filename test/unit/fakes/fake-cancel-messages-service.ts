import type { Tx } from '../../../src/database/unit-of-work';
import type { CancelMessagesService, CancelOutcome } from '../../../src/messaging/cancel-messages.service';
import { openTx } from './fake-unit-of-work';

/** CancelMessagesService.cancelForRecipient: records the opt-out's cancellations, made in the caller's transaction. */
export class FakeCancelMessagesService implements Pick<CancelMessagesService, 'cancelForRecipient'> {
  readonly forRecipient: Array<{ accountId: number; number: string; tx: Tx }> = [];

  async cancelForRecipient(accountId: number, number: string, tx: Tx): Promise<CancelOutcome> {
    openTx('CancelMessagesService.cancelForRecipient', tx);
    this.forRecipient.push({ accountId, number, tx });
    return { count: 0, refunded: 0 };
  }
}
