import { Injectable } from '@nestjs/common';
import type { Tx } from '../../database/unit-of-work';
import { CancelledMessageRecord, CancelMatch, CancelsRepository } from './cancels.repository';

/**
 * What a cancel may take, by the claim protocol: only messages no dispatcher holds, under the locks that
 * make a claim and a cancel take turns. Messaging's cancels and opt-outs call it in their transaction.
 */
@Injectable()
export class UnclaimedCancellation {
  constructor(private readonly cancels: CancelsRepository) {}

  cancelUnsentToRecipient(accountId: number, number: string, tx: Tx): Promise<CancelledMessageRecord[]> {
    return this.cancels.cancelUnsentToRecipient(accountId, number, tx);
  }

  cancelScheduled(accountId: number, match: CancelMatch, tx: Tx): Promise<CancelledMessageRecord[]> {
    return this.cancels.cancelScheduled(accountId, match, tx);
  }
}
