import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../database/sql';
import { Tx } from '../database/unit-of-work';
import type { NumberSubscription } from './number-subscription.entity';

const COLUMNS = `id, number, account_id AS "accountId", purchase_id AS "purchaseId", card_id AS "cardId", api_key_id AS "apiKeyId",
  purchased_at AS "purchasedAt", expires_at AS "expiresAt", renewal_state AS "renewalState", renewal_attempts AS "renewalAttempts",
  next_attempt_at AS "nextAttemptAt", released_at AS "releasedAt"`;

export interface AccountNumber {
  number: string;
  kind: 'free' | 'paid';
  purchasedAt: Date;
  expiresAt: Date | null;
  renewalState: string | null;
}

@Injectable()
export class SubscriptionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(s: Omit<NumberSubscription, 'id' | 'renewalState' | 'renewalAttempts' | 'nextAttemptAt' | 'releasedAt'>, tx: Tx): Promise<NumberSubscription> {
    const { rows } = await sql<NumberSubscription>(
      tx,
      `INSERT INTO number_subscriptions (number, account_id, purchase_id, card_id, api_key_id, purchased_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
      [s.number, s.accountId, s.purchaseId, s.cardId, s.apiKeyId, s.purchasedAt.toISOString(), s.expiresAt.toISOString()],
    );
    return rows[0];
  }

  async byPurchase(purchaseId: number, tx?: Tx): Promise<NumberSubscription | null> {
    const { rows } = await sql<NumberSubscription>(tx ?? this.dataSource, `SELECT ${COLUMNS} FROM number_subscriptions WHERE purchase_id = $1`, [purchaseId]);
    return rows[0] ?? null;
  }

  async liveForNumber(number: string, tx?: Tx): Promise<NumberSubscription | null> {
    const { rows } = await sql<NumberSubscription>(tx ?? this.dataSource, `SELECT ${COLUMNS} FROM number_subscriptions WHERE number = $1 AND released_at IS NULL`, [number]);
    return rows[0] ?? null;
  }

  async lock(id: number, tx: Tx): Promise<NumberSubscription | null> {
    const { rows } = await sql<NumberSubscription>(tx, `SELECT ${COLUMNS} FROM number_subscriptions WHERE id = $1 FOR UPDATE`, [id]);
    return rows[0] ?? null;
  }

  /** The account's free number and its live bought numbers, oldest first. */
  async listForAccount(accountId: number): Promise<AccountNumber[]> {
    const { rows } = await sql<AccountNumber>(
      this.dataSource,
      `SELECT d.number, d.kind, COALESCE(s.purchased_at, d.assigned_at) AS "purchasedAt", s.expires_at AS "expiresAt", s.renewal_state AS "renewalState"
         FROM dedicated_numbers d
         LEFT JOIN number_subscriptions s ON s.number = d.number AND s.released_at IS NULL AND s.account_id = d.account_id
        WHERE d.account_id = $1 AND (d.kind = 'free' OR s.id IS NOT NULL)
        ORDER BY d.assigned_at, d.number`,
      [accountId],
    );
    return rows;
  }

  /** Live subscriptions whose renewal is due at `at` (charged `leadMs` before expiry, retried from next_attempt_at). */
  async dueIds(at: Date, leadMs: number, limit: number): Promise<number[]> {
    const { rows } = await sql<{ id: number }>(
      this.dataSource,
      `SELECT id FROM number_subscriptions
        WHERE released_at IS NULL AND expires_at - $2 * interval '1 millisecond' <= $1 AND (next_attempt_at IS NULL OR next_attempt_at <= $1)
        ORDER BY expires_at LIMIT $3`,
      [at.toISOString(), leadMs, limit],
    );
    return rows.map((r) => r.id);
  }

  async renewed(id: number, expiresAt: Date, tx: Tx): Promise<void> {
    await sql(tx, `UPDATE number_subscriptions SET expires_at = $2, renewal_state = 'active', renewal_attempts = 0, next_attempt_at = NULL WHERE id = $1`, [
      id,
      expiresAt.toISOString(),
    ]);
  }

  async failedAttempt(id: number, nextAttemptAt: Date, tx: Tx): Promise<void> {
    await sql(tx, `UPDATE number_subscriptions SET renewal_state = 'retrying', renewal_attempts = renewal_attempts + 1, next_attempt_at = $2 WHERE id = $1`, [
      id,
      nextAttemptAt.toISOString(),
    ]);
  }

  /** Waits for the renewal purchase in flight: no new attempt until then. */
  async postpone(id: number, nextAttemptAt: Date, tx: Tx): Promise<void> {
    await sql(tx, `UPDATE number_subscriptions SET next_attempt_at = $2 WHERE id = $1`, [id, nextAttemptAt.toISOString()]);
  }

  async release(id: number, at: Date, tx: Tx): Promise<void> {
    await sql(tx, `UPDATE number_subscriptions SET renewal_state = 'released', released_at = $2, next_attempt_at = NULL WHERE id = $1`, [id, at.toISOString()]);
  }
}
