import { Injectable } from '@nestjs/common';
import { sql } from '../database/sql';
import { Tx } from '../database/unit-of-work';

/** What a check found wrong, as the rows of one set-based query. Amounts are hundredths. */
export interface BalanceMismatch {
  accountId: number;
  balance: number;
  ledgerTotal: number;
}
export interface SendDebitMismatch {
  accountId: number;
  sendId: number;
  isTest: boolean;
  messagesCost: number;
  sendTotal: number;
  debits: number;
  debited: number;
}
export interface OrphanDebit {
  accountId: number;
  ledgerEntryId: number;
  reference: string;
  amount: number;
}
export interface RefundLinesMismatch {
  accountId: number;
  ledgerEntryId: number;
  amount: number;
  linesTotal: number;
}
export interface RefundOfWrongMessage {
  accountId: number;
  ledgerEntryId: number;
  messageId: string;
  amount: number;
  messageStatus: string | null;
  messageCost: number | null;
  messageAccountId: number | null;
  messageIsTest: boolean | null;
}
export interface RefundedAndSubmitted {
  accountId: number;
  messageId: string;
  parts: number;
}
export interface CancelledNotRefunded {
  accountId: number;
  messageId: string;
  cost: number;
}

/** Most violations one check reports; more than that is reported as truncated. */
export const REPORT_LIMIT = 1000;

/** `($1::int IS NULL OR x = $1)`: every account, or the one asked for. */
/**
 * Where message retention has reached: whole months of messages (and their parts) before it may have been
 * dropped, while the sends, ledger rows and refund lines that named them are kept. A check that joins
 * messages does not count a message missing before the horizon as wrong. The first kept message id is the
 * version 7 id of the horizon's first millisecond (ids sort by their time).
 */
export interface RetentionHorizon {
  firstKeptAt: Date;
  firstKeptId: string;
}

const scope = (column: string) => `($1::int IS NULL OR ${column} = $1)`;

/**
 * The ledger's invariants as queries, each answering its violations in one statement over whole tables
 * (no query per account or per send). The caller runs them in one transaction made a read-only
 * snapshot first, so every check sees the same moment.
 */
@Injectable()
export class LedgerAuditRepository {
  /** Must be the transaction's first statement. */
  async useSnapshot(tx: Tx): Promise<void> {
    await sql(tx, 'SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
  }

  async accountsChecked(accountId: number | null, tx: Tx): Promise<number> {
    const { rows } = await sql<{ n: number }>(tx, `SELECT count(*)::int AS n FROM accounts WHERE ${scope('id')}`, [accountId]);
    return rows[0].n;
  }

  /** The balance equals the sum of the account's ledger. */
  async balanceMismatches(accountId: number | null, tx: Tx): Promise<BalanceMismatch[]> {
    return this.rows(
      `SELECT a.id AS "accountId", a.credit_balance::float8 AS balance, COALESCE(l.total, 0)::float8 AS "ledgerTotal"
         FROM accounts a
         LEFT JOIN (SELECT account_id, SUM(amount) AS total FROM credit_ledger WHERE ${scope('account_id')} GROUP BY account_id) l ON l.account_id = a.id
        WHERE ${scope('a.id')} AND a.credit_balance <> COALESCE(l.total, 0)
        ORDER BY a.id`,
      accountId,
      tx,
    );
  }

  /**
   * Every send is debited exactly once, by what its stored (successful) messages cost, which is also its
   * total_cost; a test send, or one that costs nothing, is never debited.
   */
  async sendDebitMismatches(accountId: number | null, horizon: RetentionHorizon, tx: Tx): Promise<SendDebitMismatch[]> {
    return this.rows(
      `WITH debits AS (
         SELECT account_id, substr(reference, 6)::bigint AS send_id, count(*)::int AS n, -SUM(amount) AS debited
           FROM credit_ledger
          WHERE kind = 'debit' AND reference ~ '^send:[0-9]{1,18}$' AND ${scope('account_id')}
          GROUP BY 1, 2),
       costs AS (
         SELECT send_id, SUM(cost) AS cost, bool_and(is_test) AS is_test FROM messages WHERE ${scope('account_id')} GROUP BY send_id)
       SELECT s.account_id AS "accountId", s.id::float8 AS "sendId", COALESCE(c.is_test, a.is_test) AS "isTest",
              COALESCE(c.cost, 0)::float8 AS "messagesCost", s.total_cost::float8 AS "sendTotal",
              COALESCE(d.n, 0) AS debits, COALESCE(d.debited, 0)::float8 AS debited
         FROM sends s
         JOIN accounts a ON a.id = s.account_id
         LEFT JOIN costs c ON c.send_id = s.id
         LEFT JOIN debits d ON d.send_id = s.id AND d.account_id = s.account_id
        WHERE ${scope('s.account_id')}
          AND NOT (c.send_id IS NULL AND s.created_at < $3::timestamptz)
          AND (s.total_cost <> COALESCE(c.cost, 0)
               OR CASE WHEN COALESCE(c.is_test, a.is_test) OR COALESCE(c.cost, 0) = 0 THEN COALESCE(d.n, 0) <> 0
                       ELSE COALESCE(d.n, 0) <> 1 OR d.debited <> c.cost END)
        ORDER BY s.id`,
      accountId,
      tx,
      [horizon.firstKeptAt],
    );
  }

  /** Every debit pays for a send of its own account. */
  async orphanDebits(accountId: number | null, tx: Tx): Promise<OrphanDebit[]> {
    return this.rows(
      `SELECT l.account_id AS "accountId", l.id::float8 AS "ledgerEntryId", l.reference, l.amount::float8 AS amount
         FROM credit_ledger l
        WHERE l.kind = 'debit' AND ${scope('l.account_id')}
          AND CASE WHEN l.reference ~ '^send:[0-9]{1,18}$'
                   THEN NOT EXISTS (SELECT 1 FROM sends s WHERE s.id = substr(l.reference, 6)::bigint AND s.account_id = l.account_id)
                   ELSE true END
        ORDER BY l.id`,
      accountId,
      tx,
    );
  }

  /** Every refund is exactly the sum of the messages it names. */
  async refundLinesMismatches(accountId: number | null, tx: Tx): Promise<RefundLinesMismatch[]> {
    return this.rows(
      `SELECT l.account_id AS "accountId", l.id::float8 AS "ledgerEntryId", l.amount::float8 AS amount, COALESCE(SUM(r.amount), 0)::float8 AS "linesTotal"
         FROM credit_ledger l
         LEFT JOIN credit_refund_lines r ON r.ledger_entry_id = l.id
        WHERE l.kind = 'refund' AND ${scope('l.account_id')}
        GROUP BY l.id
       HAVING l.amount <> COALESCE(SUM(r.amount), 0)
        ORDER BY l.id`,
      accountId,
      tx,
    );
  }

  /** Every message a refund names is a cancelled message of a live account, refunded by its cost. */
  async refundsOfWrongMessages(accountId: number | null, horizon: RetentionHorizon, tx: Tx): Promise<RefundOfWrongMessage[]> {
    return this.rows(
      `SELECT l.account_id AS "accountId", l.id::float8 AS "ledgerEntryId", r.message_id AS "messageId", r.amount::float8 AS amount,
              m.status AS "messageStatus", m.cost::float8 AS "messageCost", m.account_id AS "messageAccountId", m.is_test AS "messageIsTest"
         FROM credit_refund_lines r
         JOIN credit_ledger l ON l.id = r.ledger_entry_id
         LEFT JOIN messages m ON m.id = r.message_id
        WHERE ${scope('l.account_id')}
          AND ((m.id IS NULL AND r.message_id >= $3::uuid) OR m.status <> 'cancelled' OR m.account_id <> l.account_id OR m.cost <> r.amount OR m.is_test)
        ORDER BY l.id, r.message_id`,
      accountId,
      tx,
      [horizon.firstKeptId],
    );
  }

  /** No refunded message reached the carrier. */
  async refundedAndSubmitted(accountId: number | null, tx: Tx): Promise<RefundedAndSubmitted[]> {
    return this.rows(
      `SELECT l.account_id AS "accountId", r.message_id AS "messageId", count(*)::int AS parts
         FROM credit_refund_lines r
         JOIN credit_ledger l ON l.id = r.ledger_entry_id
         JOIN message_parts p ON p.message_id = r.message_id
        WHERE ${scope('l.account_id')}
        GROUP BY l.account_id, r.message_id
        ORDER BY r.message_id`,
      accountId,
      tx,
    );
  }

  /** Every cancelled message a live account paid for was refunded. */
  async cancelledNotRefunded(accountId: number | null, tx: Tx): Promise<CancelledNotRefunded[]> {
    return this.rows(
      `SELECT m.account_id AS "accountId", m.id AS "messageId", m.cost::float8 AS cost
         FROM messages m
        WHERE m.status = 'cancelled' AND NOT m.is_test AND m.cost > 0 AND ${scope('m.account_id')}
          AND NOT EXISTS (SELECT 1 FROM credit_refund_lines r WHERE r.message_id = m.id)
        ORDER BY m.id`,
      accountId,
      tx,
    );
  }

  /** Parameters: $1 the account (or null for all), $2 the report limit, then `extra` as $3, $4, …. */
  private async rows<R extends object>(text: string, accountId: number | null, tx: Tx, extra: unknown[] = []): Promise<R[]> {
    const { rows } = await sql<R>(tx, `${text} LIMIT $2`, [accountId, REPORT_LIMIT, ...extra]);
    return rows;
  }
}
