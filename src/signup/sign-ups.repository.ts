import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../database/sql';
import { Tx } from '../database/unit-of-work';

export interface PendingSignUp {
  id: number;
  email: string;
  name: string;
  businessName: string;
}

const PENDING = `id, email, name, business_name AS "businessName"`;

@Injectable()
export class SignUpsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Moments of the sign-ups from this address since `since`, and how many asked for this email since then: one statement. */
  async recent(ipSha256: Buffer, email: string, since: Date): Promise<{ fromAddress: Date[]; forEmail: number }> {
    const { rows } = await sql<{ from_address: Date[] | null; for_email: number }>(
      this.dataSource,
      `SELECT (SELECT array_agg(created_at) FROM sign_ups WHERE ip_sha256 = $1 AND created_at > $3) AS from_address,
              (SELECT count(*)::int FROM sign_ups WHERE email = $2 AND created_at > $3) AS for_email`,
      [ipSha256, email, since.toISOString()],
    );
    return { fromAddress: rows[0].from_address ?? [], forEmail: rows[0].for_email };
  }

  async insert(
    row: { email: string; name: string; businessName: string; passwordHash: string; tokenSha256: Buffer; ipSha256: Buffer; at: Date; expiresAt: Date },
    tx: Tx,
  ): Promise<void> {
    await sql(
      tx,
      `INSERT INTO sign_ups (email, name, business_name, password_hash, token_sha256, ip_sha256, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [row.email, row.name, row.businessName, row.passwordHash, row.tokenSha256, row.ipSha256, row.at.toISOString(), row.expiresAt.toISOString()],
    );
  }

  /** The sign-up behind a link while it is unused and unexpired. */
  async findLive(tokenSha256: Buffer, now: Date): Promise<PendingSignUp | null> {
    const { rows } = await sql<PendingSignUp>(this.dataSource, `SELECT ${PENDING} FROM sign_ups WHERE token_sha256 = $1 AND used_at IS NULL AND expires_at > $2`, [
      tokenSha256,
      now.toISOString(),
    ]);
    return rows[0] ?? null;
  }

  /** Uses the link: one conditional UPDATE, so two tabs (or two clicks) cannot both open an account. */
  async consume(tokenSha256: Buffer, now: Date, tx: Tx): Promise<(PendingSignUp & { passwordHash: string }) | null> {
    const { rows } = await sql<PendingSignUp & { passwordHash: string }>(
      tx,
      `UPDATE sign_ups SET used_at = $2 WHERE token_sha256 = $1 AND used_at IS NULL AND expires_at > $2
       RETURNING ${PENDING}, password_hash AS "passwordHash"`,
      [tokenSha256, now.toISOString()],
    );
    return rows[0] ?? null;
  }

  /** Records the account the sign-up opened; the email's other unused links stop working. */
  async settle(id: number, email: string, accountId: number, now: Date, tx: Tx): Promise<void> {
    await sql(tx, `UPDATE sign_ups SET account_id = $2 WHERE id = $1`, [id, accountId]);
    await sql(tx, `UPDATE sign_ups SET used_at = $2 WHERE email = $1 AND used_at IS NULL`, [email, now.toISOString()]);
  }
}
