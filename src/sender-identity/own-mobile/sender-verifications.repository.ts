import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../../database/sql';
import { Tx } from '../../database/unit-of-work';

export interface NewVerification {
  accountId: number;
  senderId: number;
  number: string;
  tokenSha256: Buffer;
  messageId: string;
  userId: number | null;
  apiKeyId: number | null;
  createdAt: Date;
  expiresAt: Date;
}

export interface VerificationRecord {
  id: number;
  accountId: number;
  senderId: number;
  number: string;
  messageId: string | null;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
}

const RECORD = `id, account_id AS "accountId", sender_id AS "senderId", number, message_id AS "messageId", created_at AS "createdAt", expires_at AS "expiresAt", used_at AS "usedAt"`;

@Injectable()
export class SenderVerificationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Serialises everything about one mobile number until the transaction ends, on every instance (a
   * transaction-scoped advisory lock): the hourly count and the new text cannot race.
   */
  async lockNumber(number: string, tx: Tx): Promise<void> {
    await sql(tx, `SELECT pg_advisory_xact_lock(hashtextextended('sender-verification:' || $1, 0))`, [number]);
  }

  /** Confirmation texts sent to this number since then, from any account, and when the oldest of them was. */
  async sentSince(number: string, since: Date, tx: Tx): Promise<{ count: number; oldest: Date | null }> {
    const { rows } = await sql<{ count: number; oldest: Date | null }>(
      tx,
      `SELECT count(*)::int AS count, min(created_at) AS oldest FROM sender_verifications WHERE number = $1 AND created_at > $2`,
      [number, since.toISOString()],
    );
    return rows[0];
  }

  async insert(v: NewVerification, tx: Tx): Promise<void> {
    await sql(
      tx,
      `INSERT INTO sender_verifications (account_id, sender_id, number, token_sha256, message_id, user_id, api_key_id, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [v.accountId, v.senderId, v.number, v.tokenSha256, v.messageId, v.userId, v.apiKeyId, v.createdAt.toISOString(), v.expiresAt.toISOString()],
    );
  }

  /** Links of the sender not yet used stop working (a newer one was sent, or the sender was confirmed or withdrawn). */
  async retireLive(senderId: number, at: Date, tx: Tx): Promise<void> {
    await sql(tx, `UPDATE sender_verifications SET retired_at = $2 WHERE sender_id = $1 AND used_at IS NULL AND retired_at IS NULL`, [senderId, at.toISOString()]);
  }

  /** Uses a live link (once: one conditional UPDATE); null when it is unknown, used, replaced or expired. */
  async consume(tokenSha256: Buffer, at: Date, tx: Tx): Promise<VerificationRecord | null> {
    const { rows } = await sql<VerificationRecord>(
      tx,
      `UPDATE sender_verifications SET used_at = $2
        WHERE token_sha256 = $1 AND used_at IS NULL AND retired_at IS NULL AND expires_at > $2
        RETURNING ${RECORD}`,
      [tokenSha256, at.toISOString()],
    );
    return rows[0] ?? null;
  }

  async findByToken(tokenSha256: Buffer, tx: Tx): Promise<VerificationRecord | null> {
    const { rows } = await sql<VerificationRecord>(tx, `SELECT ${RECORD} FROM sender_verifications WHERE token_sha256 = $1`, [tokenSha256]);
    return rows[0] ?? null;
  }

  /** The latest confirmation text of each of these senders (the Sender IDs page shows its state). */
  async latestForSenders(senderIds: number[]): Promise<VerificationRecord[]> {
    if (senderIds.length === 0) return [];
    const { rows } = await sql<VerificationRecord>(
      this.dataSource,
      `SELECT DISTINCT ON (sender_id) ${RECORD} FROM sender_verifications WHERE sender_id = ANY($1::int[]) ORDER BY sender_id, created_at DESC, id DESC`,
      [senderIds],
    );
    return rows;
  }

  /** The mobiles this user registered and confirmed that are still the account's active `own` senders, in number order. */
  async confirmedByUser(accountId: number, userId: number): Promise<string[]> {
    const { rows } = await sql<{ number: string }>(
      this.dataSource,
      `SELECT DISTINCT s.value AS number
         FROM sender_verifications v
         JOIN senders s ON s.id = v.sender_id AND s.account_id = v.account_id
        WHERE v.account_id = $1 AND v.user_id = $2 AND v.used_at IS NOT NULL AND s.type = 'own' AND s.status = 'active'
        ORDER BY 1`,
      [accountId, userId],
    );
    return rows.map((r) => r.number);
  }
}
