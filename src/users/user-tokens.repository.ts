import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../database/sql';
import { Tx } from '../database/unit-of-work';
import type { UserTokenPurpose } from './user-token.entity';

export interface LiveToken {
  userId: number;
  purpose: UserTokenPurpose;
  email: string;
}

@Injectable()
export class UserTokensRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(userId: number, purpose: UserTokenPurpose, tokenSha256: Buffer, at: Date, expiresAt: Date, tx?: Tx): Promise<void> {
    await sql(tx ?? this.dataSource, `INSERT INTO user_tokens (user_id, purpose, token_sha256, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)`, [
      userId,
      purpose,
      tokenSha256,
      at.toISOString(),
      expiresAt.toISOString(),
    ]);
  }

  /** The link's user while it is unused and unexpired at `now`. */
  async findLive(tokenSha256: Buffer, now: Date): Promise<LiveToken | null> {
    const { rows } = await sql<{ user_id: number; purpose: UserTokenPurpose; email: string }>(
      this.dataSource,
      `SELECT t.user_id, t.purpose, u.email FROM user_tokens t JOIN users u ON u.id = t.user_id
        WHERE t.token_sha256 = $1 AND t.used_at IS NULL AND t.expires_at > $2`,
      [tokenSha256, now.toISOString()],
    );
    return rows[0] ? { userId: rows[0].user_id, purpose: rows[0].purpose, email: rows[0].email } : null;
  }

  /** Uses the link: one conditional UPDATE, so two tabs racing cannot both use it. */
  async consume(tokenSha256: Buffer, now: Date, tx: Tx): Promise<LiveToken | null> {
    const { rows } = await sql<{ user_id: number; purpose: UserTokenPurpose; email: string }>(
      tx,
      `UPDATE user_tokens t SET used_at = $2 FROM users u
        WHERE t.token_sha256 = $1 AND t.used_at IS NULL AND t.expires_at > $2 AND u.id = t.user_id
        RETURNING t.user_id, t.purpose, u.email`,
      [tokenSha256, now.toISOString()],
    );
    return rows[0] ? { userId: rows[0].user_id, purpose: rows[0].purpose, email: rows[0].email } : null;
  }

  /** Retires every unused link of the user (a newer one was sent, or the password was just set). */
  async retireForUser(userId: number, now: Date, tx: Tx): Promise<void> {
    await sql(tx, `UPDATE user_tokens SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL`, [userId, now.toISOString()]);
  }

  async countSince(userId: number, purpose: UserTokenPurpose, since: Date): Promise<number> {
    const { rows } = await sql<{ n: number }>(this.dataSource, `SELECT count(*)::int AS n FROM user_tokens WHERE user_id = $1 AND purpose = $2 AND created_at > $3`, [
      userId,
      purpose,
      since.toISOString(),
    ]);
    return rows[0].n;
  }
}
