import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../database/sql';
import { Tx } from '../database/unit-of-work';

export interface SessionRecord {
  sessionId: number;
  createdAt: Date;
  lastSeenAt: Date;
  userId: number;
  accountId: number;
  accountName: string;
  accountIsTest: boolean;
  /** The account's IANA zone: how its pages show time. */
  accountTimeZone: string;
  email: string;
  name: string;
  isOwner: boolean;
  permissions: string[];
  /** The account requires two-factor sign-in of every user (the owner's switch). */
  accountRequiresTwoFactor: boolean;
  /** This user signs in with two factors. */
  twoFactorOn: boolean;
  /** When the sending brake paused the account's sends (null: sending normally). */
  sendingPausedAt: Date | null;
}

@Injectable()
export class SessionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(userId: number, tokenSha256: Buffer, at: Date, ip: string, tx?: Tx): Promise<number> {
    const { rows } = await sql<{ id: number }>(
      tx ?? this.dataSource,
      `INSERT INTO user_sessions (user_id, token_sha256, created_at, last_seen_at, ip) VALUES ($1, $2, $3, $3, $4) RETURNING id`,
      [userId, tokenSha256, at.toISOString(), ip],
    );
    return Number(rows[0].id);
  }

  /** The session and who it belongs to, in one indexed read. */
  async findByToken(tokenSha256: Buffer): Promise<SessionRecord | null> {
    const { rows } = await sql<{
      id: string;
      created_at: Date;
      last_seen_at: Date;
      user_id: number;
      account_id: number;
      account_name: string;
      account_is_test: boolean;
      account_time_zone: string;
      email: string;
      name: string;
      is_owner: boolean;
      permissions: string[];
      require_two_factor: boolean;
      two_factor_on: boolean;
      sending_paused_at: Date | null;
    }>(
      this.dataSource,
      `SELECT s.id, s.created_at, s.last_seen_at, u.id AS user_id, u.account_id, a.name AS account_name, a.is_test AS account_is_test, a.time_zone AS account_time_zone,
              u.email, u.name, u.is_owner, u.permissions, a.require_two_factor, u.totp_enabled_at IS NOT NULL AS two_factor_on,
              sb.paused_at AS sending_paused_at
         FROM user_sessions s JOIN users u ON u.id = s.user_id JOIN accounts a ON a.id = u.account_id
         LEFT JOIN sending_brakes sb ON sb.account_id = a.id
        WHERE s.token_sha256 = $1`,
      [tokenSha256],
    );
    const r = rows[0];
    if (!r) return null;
    return {
      sessionId: Number(r.id),
      createdAt: r.created_at,
      lastSeenAt: r.last_seen_at,
      userId: r.user_id,
      accountId: r.account_id,
      accountName: r.account_name,
      accountIsTest: r.account_is_test,
      accountTimeZone: r.account_time_zone,
      email: r.email,
      name: r.name,
      isOwner: r.is_owner,
      permissions: r.permissions,
      accountRequiresTwoFactor: r.require_two_factor,
      twoFactorOn: r.two_factor_on,
      sendingPausedAt: r.sending_paused_at,
    };
  }

  /** Written only when the stored time is older than `staleBefore`, so concurrent pages write once. */
  async touch(sessionId: number, at: Date, staleBefore: Date): Promise<void> {
    await sql(this.dataSource, `UPDATE user_sessions SET last_seen_at = $2 WHERE id = $1 AND last_seen_at < $3`, [sessionId, at.toISOString(), staleBefore.toISOString()]);
  }

  async delete(sessionId: number): Promise<void> {
    await sql(this.dataSource, `DELETE FROM user_sessions WHERE id = $1`, [sessionId]);
  }

  async deleteByToken(tokenSha256: Buffer): Promise<{ userId: number; accountId: number; email: string } | null> {
    const { rows } = await sql<{ user_id: number; account_id: number; email: string }>(
      this.dataSource,
      `DELETE FROM user_sessions s USING users u WHERE s.token_sha256 = $1 AND u.id = s.user_id RETURNING s.user_id, u.account_id, u.email`,
      [tokenSha256],
    );
    return rows[0] ? { userId: rows[0].user_id, accountId: rows[0].account_id, email: rows[0].email } : null;
  }

  /** Every session of the user except `keepSessionId` (null: all of them). */
  async deleteForUser(userId: number, keepSessionId: number | null, tx: Tx): Promise<number> {
    const { rowCount } = await sql(tx, `DELETE FROM user_sessions WHERE user_id = $1 AND ($2::bigint IS NULL OR id <> $2)`, [userId, keepSessionId]);
    return rowCount;
  }
}
