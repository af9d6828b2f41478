import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../database/sql';
import { Tx } from '../database/unit-of-work';

export interface UserRecord {
  id: number;
  accountId: number;
  email: string;
  name: string;
  isOwner: boolean;
  permissions: string[];
  hasPassword: boolean;
  createdAt: Date;
  /** Signs in with two factors. */
  twoFactorOn: boolean;
}

interface UserRow {
  id: number;
  account_id: number;
  email: string;
  name: string;
  is_owner: boolean;
  permissions: string[];
  has_password: boolean;
  created_at: Date;
  two_factor_on: boolean;
}

const COLUMNS = `id, account_id, email, name, is_owner, permissions, password_hash IS NOT NULL AS has_password, created_at, totp_enabled_at IS NOT NULL AS two_factor_on`;

const toRecord = (r: UserRow): UserRecord => ({
  id: r.id,
  accountId: r.account_id,
  email: r.email,
  name: r.name,
  isOwner: r.is_owner,
  permissions: r.permissions,
  hasPassword: r.has_password,
  createdAt: r.created_at,
  twoFactorOn: r.two_factor_on,
});

@Injectable()
export class UsersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(fields: { accountId: number; email: string; name: string; isOwner: boolean; permissions: string[] }, tx: Tx): Promise<UserRecord | null> {
    const { rows } = await sql<UserRow>(
      tx,
      `INSERT INTO users (account_id, email, name, is_owner, permissions) VALUES ($1, $2, $3, $4, $5::text[])
       ON CONFLICT (email) DO NOTHING RETURNING ${COLUMNS}`,
      [fields.accountId, fields.email, fields.name, fields.isOwner, fields.permissions],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** For sign-in: the user and their password hash, whatever their account. */
  async findByEmailWithHash(email: string): Promise<(UserRecord & { passwordHash: string | null }) | null> {
    const { rows } = await sql<UserRow & { password_hash: string | null }>(this.dataSource, `SELECT ${COLUMNS}, password_hash FROM users WHERE email = $1`, [email]);
    return rows[0] ? { ...toRecord(rows[0]), passwordHash: rows[0].password_hash } : null;
  }

  async findByEmail(email: string, tx?: Tx): Promise<UserRecord | null> {
    const { rows } = await sql<UserRow>(tx ?? this.dataSource, `SELECT ${COLUMNS} FROM users WHERE email = $1`, [email]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async findById(userId: number, tx?: Tx): Promise<UserRecord | null> {
    const { rows } = await sql<UserRow>(tx ?? this.dataSource, `SELECT ${COLUMNS} FROM users WHERE id = $1`, [userId]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** A user of this account, locked for the rest of the transaction. */
  async findInAccountForUpdate(accountId: number, userId: number, tx: Tx): Promise<UserRecord | null> {
    const { rows } = await sql<UserRow>(tx, `SELECT ${COLUMNS} FROM users WHERE account_id = $1 AND id = $2 FOR UPDATE`, [accountId, userId]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async passwordHashOf(userId: number): Promise<string | null> {
    const { rows } = await sql<{ password_hash: string | null }>(this.dataSource, `SELECT password_hash FROM users WHERE id = $1`, [userId]);
    return rows[0]?.password_hash ?? null;
  }

  async listForAccount(accountId: number): Promise<UserRecord[]> {
    const { rows } = await sql<UserRow>(this.dataSource, `SELECT ${COLUMNS} FROM users WHERE account_id = $1 ORDER BY is_owner DESC, email`, [accountId]);
    return rows.map(toRecord);
  }

  async ownerOf(accountId: number, tx?: Tx): Promise<UserRecord | null> {
    const { rows } = await sql<UserRow>(tx ?? this.dataSource, `SELECT ${COLUMNS} FROM users WHERE account_id = $1 AND is_owner`, [accountId]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** Serialises changes to an account's users (ownership, the first owner) on the account's row. */
  async lockAccount(accountId: number, tx: Tx): Promise<boolean> {
    const { rows } = await sql(tx, `SELECT id FROM accounts WHERE id = $1 FOR UPDATE`, [accountId]);
    return rows.length > 0;
  }

  async setPermissions(userId: number, permissions: string[], tx: Tx): Promise<void> {
    await sql(tx, `UPDATE users SET permissions = $2::text[] WHERE id = $1 AND NOT is_owner`, [userId, permissions]);
  }

  async setName(userId: number, name: string, tx: Tx): Promise<void> {
    await sql(tx, `UPDATE users SET name = $2 WHERE id = $1`, [userId, name]);
  }

  async setPasswordHash(userId: number, passwordHash: string, tx: Tx): Promise<void> {
    await sql(tx, `UPDATE users SET password_hash = $2 WHERE id = $1`, [userId, passwordHash]);
  }

  async delete(accountId: number, userId: number, tx: Tx): Promise<boolean> {
    const { rowCount } = await sql(tx, `DELETE FROM users WHERE account_id = $1 AND id = $2 AND NOT is_owner`, [accountId, userId]);
    return rowCount > 0;
  }

  /** Moves ownership in one transaction: the old owner first gives it up (the unique index allows one owner at a time) and keeps every permission. */
  async transferOwnership(accountId: number, fromUserId: number, toUserId: number, allPermissions: string[], tx: Tx): Promise<void> {
    await sql(tx, `UPDATE users SET is_owner = false, permissions = $3::text[] WHERE account_id = $1 AND id = $2 AND is_owner`, [accountId, fromUserId, allPermissions]);
    await sql(tx, `UPDATE users SET is_owner = true, permissions = '{}' WHERE account_id = $1 AND id = $2`, [accountId, toUserId]);
  }
}
