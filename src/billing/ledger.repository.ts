import { Injectable } from '@nestjs/common';
import { Tx } from '../database/unit-of-work';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../database/sql';
import { LedgerKind } from './credit-ledger-entry.entity';
import type { BalanceThresholds } from './balance-crossings';
import type { KeysetCursor } from '../common/http/keyset';

/** One line of an account's statement. */
export interface StatementRow {
  id: number;
  kind: LedgerKind;
  /** Signed hundredths. */
  amount: number;
  reason: string;
  reference: string;
  createdAt: Date;
}

/** One message a refund pays back. */
export interface RefundLine {
  messageId: string;
  /** Hundredths, > 0. */
  amount: number;
}

export interface LedgerMovement {
  kind: LedgerKind;
  /** Signed hundredths: positive for grant and refund, negative for debit. */
  amount: number;
  reason: string;
  reference: string;
}

@Injectable()
export class LedgerRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Moves the balance and records the movement in one statement pair inside the caller's transaction.
   * The balance update is conditional, so a debit never takes it below zero; returns the new balance,
   * or null when the account cannot pay (nothing is written then).
   */
  async apply(accountId: number, movement: LedgerMovement, tx: Tx): Promise<number | null> {
    const applied = await this.move(accountId, movement, tx);
    return applied?.balance ?? null;
  }

  /** As apply, answering also the account's balance thresholds read by the same UPDATE (no extra statement on the send path). */
  async applyWithThresholds(accountId: number, movement: LedgerMovement, tx: Tx): Promise<{ balance: number; thresholds: BalanceThresholds } | null> {
    const applied = await this.move(accountId, movement, tx);
    return applied ? { balance: applied.balance, thresholds: applied.thresholds } : null;
  }

  /**
   * A refund and the messages it pays back, in the caller's transaction: the balance, the ledger row
   * and one line per message (one statement for the lines). A message refunded twice violates the
   * lines' primary key, so the whole transaction fails rather than paying twice.
   */
  async applyRefund(accountId: number, movement: LedgerMovement, lines: readonly RefundLine[], tx: Tx): Promise<number | null> {
    const applied = await this.move(accountId, movement, tx);
    if (!applied) return null;
    await sql(
      tx,
      `INSERT INTO credit_refund_lines (message_id, ledger_entry_id, amount)
       SELECT m, $1, a FROM unnest($2::uuid[], $3::bigint[]) AS l(m, a)`,
      [applied.entryId, lines.map((l) => l.messageId), lines.map((l) => l.amount)],
    );
    return applied.balance;
  }

  private async move(accountId: number, movement: LedgerMovement, tx: Tx): Promise<{ balance: number; entryId: number; thresholds: BalanceThresholds } | null> {
    const { rows } = await sql<{ credit_balance: number; recharge_below: number | null; warn_below: number | null }>(
      tx,
      `UPDATE accounts SET credit_balance = credit_balance + $2
        WHERE id = $1 AND credit_balance + $2 >= 0
        RETURNING credit_balance, recharge_below, warn_below`,
      [accountId, movement.amount],
    );
    if (rows.length === 0) return null;
    const entry = await sql<{ id: number }>(tx, `INSERT INTO credit_ledger (account_id, kind, amount, reason, reference) VALUES ($1, $2, $3, $4, $5) RETURNING id`, [
      accountId,
      movement.kind,
      movement.amount,
      movement.reason,
      movement.reference,
    ]);
    return { balance: rows[0].credit_balance, entryId: entry.rows[0].id, thresholds: { recharge: rows[0].recharge_below, warning: rows[0].warn_below } };
  }

  async sumForAccount(accountId: number): Promise<number> {
    const { rows } = await sql<{ total: number }>(this.dataSource, `SELECT COALESCE(SUM(amount), 0)::bigint AS total FROM credit_ledger WHERE account_id = $1`, [accountId]);
    return rows[0].total;
  }

  /** The account's ledger in the cursor's direction by id (`limit` rows at most): the statement's page. */
  async statementRows(accountId: number, cursor: KeysetCursor, limit: number): Promise<StatementRow[]> {
    const older = cursor.direction === 'older';
    const { rows } = await sql<StatementRow>(
      this.dataSource,
      `SELECT id, kind, amount, reason, reference, created_at AS "createdAt" FROM credit_ledger
        WHERE account_id = $1 AND ($2::bigint IS NULL OR ${older ? 'id < $2' : 'id > $2'})
        ORDER BY id ${older ? 'DESC' : 'ASC'} LIMIT $3`,
      [accountId, cursor.from ?? null, limit],
    );
    return rows;
  }
}
