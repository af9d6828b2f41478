import type { Tx } from '../../../src/database/unit-of-work';
import { IdempotencyClaim, IdempotencyKeyTaken, IdempotencyService } from '../../../src/idempotency/idempotency.service';
import { openTx } from './fake-unit-of-work';
import { Journal } from './journal';

/**
 * The two calls an operation makes inside its transaction: claim the key (IdempotencyKeyTaken when the
 * test says another request already completed it) and complete it with the response to replay.
 */
export class FakeIdempotencyService implements Pick<IdempotencyService, 'claim' | 'complete'> {
  readonly claimed: IdempotencyClaim[] = [];
  readonly completed: Array<{ claim: IdempotencyClaim; status: number; body: string }> = [];
  private readonly takenByOthers = new Set<string>();

  constructor(private readonly journal = new Journal()) {}

  /** Another request already completed this key. */
  takenByAnother(key: string): this {
    this.takenByOthers.add(key);
    return this;
  }

  async claim(claim: IdempotencyClaim, tx: Tx): Promise<void> {
    const open = openTx('IdempotencyService.claim', tx);
    this.journal.record('idempotency.claim');
    if (this.takenByOthers.has(claim.key)) throw new IdempotencyKeyTaken();
    this.claimed.push(claim);
    open.onRollback(() => this.claimed.splice(this.claimed.indexOf(claim), 1));
  }

  async complete(claim: IdempotencyClaim, tx: Tx, status: number, body: string): Promise<void> {
    const open = openTx('IdempotencyService.complete', tx);
    this.journal.record('idempotency.complete');
    const record = { claim, status, body };
    this.completed.push(record);
    open.onRollback(() => this.completed.splice(this.completed.indexOf(record), 1));
  }
}
