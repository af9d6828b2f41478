import type { Tx } from '../../../src/database/unit-of-work';
import type { UnsubscribeSource } from '../../../src/unsubscribes/unsubscribe.entity';
import type { UnsubscribesService } from '../../../src/unsubscribes/unsubscribes.service';
import { openTx } from './fake-unit-of-work';
import { expectAccount } from './strict';

/** One account's unsubscribe list: lookups and opt-outs (the latter inside the caller's transaction). */
export class FakeUnsubscribesService implements Pick<UnsubscribesService, 'unsubscribedAmong' | 'unsubscribe'> {
  /** The numbers asked about, one entry per call. */
  readonly lookups: string[][] = [];
  readonly optOuts: Array<{ accountId: number; number: string; source: UnsubscribeSource; tx: Tx }> = [];
  private readonly numbers: Set<string>;

  constructor(
    private readonly accountId: number,
    unsubscribed: string[] = [],
  ) {
    this.numbers = new Set(unsubscribed);
  }

  async unsubscribedAmong(accountId: number, numbers: string[]): Promise<Set<string>> {
    expectAccount('UnsubscribesService.unsubscribedAmong', this.accountId, accountId);
    this.lookups.push([...numbers]);
    return new Set(numbers.filter((n) => this.numbers.has(n)));
  }

  async unsubscribe(accountId: number, number: string, source: UnsubscribeSource, tx?: Tx): Promise<boolean> {
    expectAccount('UnsubscribesService.unsubscribe', this.accountId, accountId);
    const open = openTx('UnsubscribesService.unsubscribe', tx);
    this.optOuts.push({ accountId, number, source, tx: open });
    const added = !this.numbers.has(number);
    this.numbers.add(number);
    if (added) open.onRollback(() => this.numbers.delete(number));
    return added;
  }
}
