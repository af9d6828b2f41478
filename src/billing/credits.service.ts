import { Injectable } from '@nestjs/common';
import { LedgerRepository, RefundLine } from './ledger.repository';
import { Tx, UnitOfWork } from '../database/unit-of-work';

export class AccountNotFoundForCreditsError extends Error {}

/** Every change of a credit balance goes through here, as a ledger row in the same transaction. */
@Injectable()
export class CreditsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly ledger: LedgerRepository,
  ) {}

  /** Adds credits (operator grant, purchase); returns the new balance in hundredths. */
  async grant(accountId: number, hundredths: number, reason: string, reference: string, manager?: Tx): Promise<number> {
    if (!Number.isInteger(hundredths) || hundredths <= 0) throw new RangeError('a grant must be a positive whole number of hundredths');
    return this.uow.runIn(manager, async (m) => {
      const balance = await this.ledger.apply(accountId, { kind: 'grant', amount: hundredths, reason, reference }, m);
      if (balance === null) throw new AccountNotFoundForCreditsError(`account ${accountId} not found`);
      return balance;
    });
  }

  /** Takes credits if the account holds them; null (and nothing written) when it does not. */
  async debit(accountId: number, hundredths: number, reason: string, reference: string, manager: Tx): Promise<number | null> {
    return this.ledger.apply(accountId, { kind: 'debit', amount: -hundredths, reason, reference }, manager);
  }

  /** Pays back the cost of the given messages as one ledger row with a line per message (those that cost something). */
  async refund(accountId: number, lines: readonly RefundLine[], reason: string, reference: string, manager: Tx): Promise<number> {
    const paid = lines.filter((l) => l.amount > 0);
    const hundredths = paid.reduce((sum, l) => sum + l.amount, 0);
    if (hundredths <= 0) throw new RangeError('a refund must pay back at least one message that cost something');
    const balance = await this.ledger.applyRefund(accountId, { kind: 'refund', amount: hundredths, reason, reference }, paid, manager);
    if (balance === null) throw new AccountNotFoundForCreditsError(`account ${accountId} not found`);
    return balance;
  }

  async ledgerSum(accountId: number): Promise<number> {
    return this.ledger.sumForAccount(accountId);
  }
}
