import { Injectable } from '@nestjs/common';
import { Tx } from '../database/unit-of-work';
import { managerFor, sql } from '../database/sql';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Account } from './account.entity';
import { randomToken } from './secrets';

/** An account as the operator's list shows it. */
export interface AccountSummary {
  id: number;
  name: string;
  isTest: boolean;
  /** Hundredths of a credit. */
  creditBalance: number;
  createdAt: Date;
  ownerEmail: string | null;
  users: number;
  activeApiKeys: number;
}

@Injectable()
export class AccountsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private repo(tx?: Tx) {
    return managerFor(this.dataSource, tx).getRepository(Account);
  }

  async findById(accountId: number, tx?: Tx): Promise<Account | null> {
    return this.repo(tx).findOne({ where: { id: accountId } });
  }

  /** The account behind an `{optout}` link's per-account code. */
  async findByOptoutCode(code: string): Promise<Account | null> {
    return this.repo().findOne({ where: { optoutCode: code } });
  }

  /**
   * The platform's own account, made on first use (one at most: the partial unique index decides
   * between instances racing to make it). It has no keys and no users; no one signs in as it.
   */
  async systemAccountId(tx?: Tx): Promise<number> {
    const db = tx ?? this.dataSource;
    const find = async () => (await sql<{ id: number }>(db, `SELECT id FROM accounts WHERE is_system`)).rows[0]?.id;
    const found = await find();
    if (found !== undefined) return found;
    await sql(db, `INSERT INTO accounts (name, is_system, optout_code) VALUES ('Platform messages', true, $1) ON CONFLICT (is_system) WHERE is_system DO NOTHING`, [
      randomToken(10),
    ]);
    return (await find())!;
  }

  async insert(fields: { name: string; isTest: boolean; allowDuplicateContacts: boolean }, tx: Tx): Promise<Account> {
    return this.repo(tx).save(this.repo(tx).create({ ...fields, optoutCode: randomToken(10) }));
  }

  /** A test account becomes live; false when it was not a test account (already live). */
  async makeLive(accountId: number, tx: Tx): Promise<boolean> {
    const { rows } = await sql(tx, `UPDATE accounts SET is_test = false WHERE id = $1 AND is_test AND NOT is_system RETURNING id`, [accountId]);
    return rows.length === 1;
  }

  async setTimeZone(accountId: number, timeZone: string, tx: Tx): Promise<void> {
    await sql(tx, `UPDATE accounts SET time_zone = $2 WHERE id = $1`, [accountId, timeZone]);
  }

  /** Sets the require-two-factor switch; answers whether it changed (false when it already was so). */
  async setRequireTwoFactor(accountId: number, required: boolean, tx: Tx): Promise<boolean> {
    const { rowCount } = await sql(tx, `UPDATE accounts SET require_two_factor = $2 WHERE id = $1 AND require_two_factor <> $2`, [accountId, required]);
    return rowCount > 0;
  }

  /**
   * Operator listing: accounts by id after `afterId` (the platform's own account is not a customer),
   * optionally those whose name contains `nameContains` (any case), each with its owner's email, its
   * user count and its active API keys, in one statement.
   */
  async listForOperator(filter: { nameContains?: string; afterId: number; limit: number }): Promise<AccountSummary[]> {
    const pattern = filter.nameContains === undefined ? null : `%${filter.nameContains.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const { rows } = await sql<AccountSummary>(
      this.dataSource,
      `SELECT a.id, a.name, a.is_test AS "isTest", a.credit_balance AS "creditBalance", a.created_at AS "createdAt",
              (SELECT u.email FROM users u WHERE u.account_id = a.id AND u.is_owner) AS "ownerEmail",
              (SELECT count(*)::int FROM users u WHERE u.account_id = a.id) AS users,
              (SELECT count(*)::int FROM api_keys k WHERE k.account_id = a.id AND k.revoked_at IS NULL) AS "activeApiKeys"
         FROM accounts a
        WHERE NOT a.is_system AND a.id > $1 AND ($2::text IS NULL OR a.name ILIKE $2)
        ORDER BY a.id
        LIMIT $3`,
      [filter.afterId, pattern, filter.limit],
    );
    return rows;
  }

  /** The billing notification address (null: the owner gets the invoices). */
  async setBillingEmail(accountId: number, email: string | null, tx?: Tx): Promise<void> {
    await sql(tx ?? this.dataSource, `UPDATE accounts SET billing_email = $2 WHERE id = $1`, [accountId, email]);
  }

  /** The thresholds a debit compares the balance with (hundredths; null: off), as auto-recharge and the warning are set. */
  async setBalanceThresholds(accountId: number, thresholds: { rechargeBelow?: number | null; warnBelow?: number | null }, tx: Tx): Promise<void> {
    if (thresholds.rechargeBelow !== undefined) await sql(tx, `UPDATE accounts SET recharge_below = $2 WHERE id = $1`, [accountId, thresholds.rechargeBelow]);
    if (thresholds.warnBelow !== undefined) await sql(tx, `UPDATE accounts SET warn_below = $2 WHERE id = $1`, [accountId, thresholds.warnBelow]);
  }
}
