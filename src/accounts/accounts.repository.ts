import { Injectable } from '@nestjs/common';
import { Tx } from '../database/unit-of-work';
import { managerFor, sql } from '../database/sql';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Account } from './account.entity';
import { randomToken } from './secrets';

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

  async setTimeZone(accountId: number, timeZone: string, tx: Tx): Promise<void> {
    await sql(tx, `UPDATE accounts SET time_zone = $2 WHERE id = $1`, [accountId, timeZone]);
  }

  /** The billing notification address (null: the owner gets the invoices). */
  async setBillingEmail(accountId: number, email: string | null, tx?: Tx): Promise<void> {
    await sql(tx ?? this.dataSource, `UPDATE accounts SET billing_email = $2 WHERE id = $1`, [accountId, email]);
  }
}
