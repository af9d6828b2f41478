import { Injectable } from '@nestjs/common';
import { LedgerRepository, RefundLine, StatementRow } from './ledger.repository';
import { KeysetCursor, KeysetPage, keysetPage } from '../common/http/keyset';
import { Tx, UnitOfWork } from '../database/unit-of-work';
import { Clock } from '../common/time/clock';
import { BalanceCrossingsRepository } from './balance-crossings.repository';
import { crossedThresholds } from './balance-crossings';

export class AccountNotFoundForCreditsError extends Error {}

/**
 * The longest reason an operator may give a grant (credits:add --reason): it is the line the account reads
 * on its statement, a short note like a consent source. No page or API takes one; this is where its limit lives.
 */
export const MAX_GRANT_REASON_LENGTH = 200;

export interface Debited {
  /** The new balance, in hundredths. */
  balance: number;
  /** Ids of the balance crossings this debit made (usually none). */
  crossings: number[];
}

/** Every change of a credit balance goes through here, as a ledger row in the same transaction. */
@Injectable()
export class CreditsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly ledger: LedgerRepository,
    private readonly crossings: BalanceCrossingsRepository,
    private readonly clock: Clock,
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

  /**
   * Takes credits if the account holds them; null (and nothing written) when it does not. A debit that
   * takes the balance below the account's auto-recharge or warning threshold records the crossing in the
   * same transaction and answers its ids, for the caller to hand to the balance queue after the commit.
   */
  async debit(accountId: number, hundredths: number, reason: string, reference: string, manager: Tx): Promise<Debited | null> {
    const moved = await this.ledger.applyWithThresholds(accountId, { kind: 'debit', amount: -hundredths, reason, reference }, manager);
    if (!moved) return null;
    const crossed = crossedThresholds(moved.balance + hundredths, moved.balance, moved.thresholds);
    const crossings = crossed.length ? await this.crossings.record(accountId, crossed, moved.balance, this.clock.now(), manager) : [];
    return { balance: moved.balance, crossings };
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

  /** A page of the account's ledger, newest first (keyset by id). */
  async statement(accountId: number, cursor: KeysetCursor, limit: number): Promise<KeysetPage<StatementRow>> {
    return keysetPage(await this.ledger.statementRows(accountId, cursor, limit + 1), cursor, limit, (r) => r.id);
  }

  async ledgerSum(accountId: number): Promise<number> {
    return this.ledger.sumForAccount(accountId);
  }
}
