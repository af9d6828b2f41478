import type { CreditsService, Debited } from '../../../src/billing/credits.service';
import type { RefundLine } from '../../../src/billing/ledger.repository';
import type { Tx } from '../../../src/database/unit-of-work';
import { openTx } from './fake-unit-of-work';
import { Journal } from './journal';
import { UnexpectedCall } from './strict';

export interface LedgerEntry {
  kind: 'debit' | 'refund';
  accountId: number;
  amount: number;
  reason: string;
  reference: string;
  /** Refunds: the messages paid back. */
  lines?: RefundLine[];
  tx: Tx;
}

/**
 * Balances and a ledger in hundredths. A debit the account cannot cover answers null and writes
 * nothing, as the conditional UPDATE does; a zero or negative amount is never a call the services make.
 */
export class FakeCreditsService implements Pick<CreditsService, 'debit' | 'refund'> {
  readonly ledger: LedgerEntry[] = [];
  private readonly balances: Map<number, number>;

  constructor(
    balances: Record<number, number>,
    private readonly journal = new Journal(),
  ) {
    this.balances = new Map(Object.entries(balances).map(([id, b]) => [Number(id), b]));
  }

  balanceOf(accountId: number): number {
    return this.balances.get(accountId)!;
  }

  async debit(accountId: number, hundredths: number, reason: string, reference: string, tx: Tx): Promise<Debited | null> {
    const open = this.check('CreditsService.debit', accountId, hundredths, tx);
    this.journal.record('credits.debit');
    const balance = this.balances.get(accountId)!;
    if (balance < hundredths) return null;
    return { balance: this.move(open, { kind: 'debit', accountId, amount: hundredths, reason, reference, tx }, -hundredths), crossings: [] };
  }

  async refund(accountId: number, lines: readonly RefundLine[], reason: string, reference: string, tx: Tx): Promise<number> {
    const paid = lines.filter((l) => l.amount > 0);
    const hundredths = paid.reduce((sum, l) => sum + l.amount, 0);
    const open = this.check('CreditsService.refund', accountId, hundredths, tx);
    this.journal.record('credits.refund');
    return this.move(open, { kind: 'refund', accountId, amount: hundredths, reason, reference, lines: [...paid], tx }, hundredths);
  }

  private check(call: string, accountId: number, hundredths: number, tx: Tx) {
    const open = openTx(call, tx);
    if (!this.balances.has(accountId)) throw new UnexpectedCall(call, `no balance for account ${accountId} in this test`);
    if (!Number.isInteger(hundredths) || hundredths <= 0) throw new UnexpectedCall(call, `amount ${hundredths} is not a positive number of hundredths`);
    return open;
  }

  private move(tx: ReturnType<typeof openTx>, entry: LedgerEntry, delta: number): number {
    const before = this.balances.get(entry.accountId)!;
    this.balances.set(entry.accountId, before + delta);
    this.ledger.push(entry);
    tx.onRollback(() => {
      this.balances.set(entry.accountId, before);
      this.ledger.splice(this.ledger.indexOf(entry), 1);
    });
    return before + delta;
  }
}
