import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../database/sql';
import { Tx } from '../database/unit-of-work';
import { RECEIVING_NUMBER_LOCK_SQL } from '../senders/receiving-number-lock';
import type { DedicatedNumberKind } from './dedicated-number.entity';
import type { FreeNumberClaim } from './free-number-claim.entity';
import type { InventoryRow } from './numbers-csv';

/**
 * An available number that an account already uses as a dedicated or shared sender (an operator added it
 * before it was imported) is not handed out: its replies would be split between two accounts.
 */
const NOT_IN_USE = `NOT EXISTS (SELECT 1 FROM senders s WHERE s.value = dedicated_numbers.number AND s.status = 'active' AND s.type IN ('dedicated', 'shared'))`;

const CLAIM = `account_id AS "accountId", number, street, suburb, state, postcode, user_id AS "userId", api_key_id AS "apiKeyId", claimed_at AS "claimedAt"`;

@Injectable()
export class NumbersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Adds numbers not yet in the inventory, in one statement; answers how many were added. */
  async importMany(rows: InventoryRow[], tx: Tx): Promise<number> {
    if (rows.length === 0) return 0;
    const { rowCount } = await sql(
      tx,
      `INSERT INTO dedicated_numbers (number, annual_price_cents)
       SELECT number, price FROM unnest($1::text[], $2::int[]) AS t(number, price)
       ON CONFLICT (number) DO NOTHING`,
      [rows.map((r) => r.number), rows.map((r) => r.annualPriceCents)],
    );
    return rowCount;
  }

  /**
   * Serialises one account's claims until the transaction ends (a transaction-scoped advisory lock), so
   * a burst of claims from one account never holds several numbers at once while they find out which wins.
   */
  async lockAccountClaims(accountId: number, tx: Tx): Promise<void> {
    await sql(tx, `SELECT pg_advisory_xact_lock(hashtextextended('free-number:' || $1::text, 0))`, [accountId]);
  }

  /**
   * Assigns the next available number (cheapest first) to the account in one conditional UPDATE;
   * SKIP LOCKED keeps concurrent claimers on different numbers, so a number goes to one account only.
   */
  async assignNext(accountId: number, kind: DedicatedNumberKind, at: Date, tx: Tx): Promise<string | null> {
    const { rows } = await sql<{ number: string }>(
      tx,
      `UPDATE dedicated_numbers SET status = 'assigned', account_id = $1, kind = $2, assigned_at = $3
        WHERE number = (SELECT number FROM dedicated_numbers WHERE status = 'available' AND ${NOT_IN_USE} ORDER BY annual_price_cents, number LIMIT 1 FOR UPDATE SKIP LOCKED)
          AND status = 'available'
        RETURNING number`,
      [accountId, kind, at.toISOString()],
    );
    return rows[0]?.number ?? null;
  }

  /** Records the account's free number; false when the account already has one (the primary key decides, whatever races). */
  async insertClaim(claim: FreeNumberClaim, tx: Tx): Promise<boolean> {
    const { rowCount } = await sql(
      tx,
      `INSERT INTO free_number_claims (account_id, number, street, suburb, state, postcode, user_id, api_key_id, claimed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (account_id) DO NOTHING`,
      [claim.accountId, claim.number, claim.street, claim.suburb, claim.state, claim.postcode, claim.userId, claim.apiKeyId, claim.claimedAt.toISOString()],
    );
    return rowCount > 0;
  }

  async claimOf(accountId: number, tx?: Tx): Promise<FreeNumberClaim | null> {
    const { rows } = await sql<FreeNumberClaim>(tx ?? this.dataSource, `SELECT ${CLAIM} FROM free_number_claims WHERE account_id = $1`, [accountId]);
    return rows[0] ?? null;
  }

  async availableCount(): Promise<number> {
    const { rows } = await sql<{ n: number }>(this.dataSource, `SELECT count(*)::int AS n FROM dedicated_numbers WHERE status = 'available' AND ${NOT_IN_USE}`);
    return rows[0].n;
  }
  /**
   * Sells this number to the account if it is still available and no account uses it as a sender (one
   * conditional UPDATE: one buyer wins); answers its price ex GST in cents. The receiving-number lock
   * first, so an operator adding the number to an account meanwhile is seen, or sees this sale.
   */
  async reserve(accountId: number, number: string, at: Date, tx: Tx): Promise<number | null> {
    await sql(tx, RECEIVING_NUMBER_LOCK_SQL, [number]);
    const { rows } = await sql<{ annual_price_cents: number }>(
      tx,
      `UPDATE dedicated_numbers SET status = 'assigned', account_id = $1, kind = 'paid', assigned_at = $3
        WHERE number = $2 AND status = 'available' AND ${NOT_IN_USE}
        RETURNING annual_price_cents`,
      [accountId, number, at.toISOString()],
    );
    return rows[0]?.annual_price_cents ?? null;
  }

  /** Puts a bought number back in the inventory (a declined or refunded purchase, a subscription that ended). */
  async release(accountId: number, number: string, tx: Tx): Promise<boolean> {
    const { rowCount } = await sql(
      tx,
      `UPDATE dedicated_numbers SET status = 'available', account_id = NULL, kind = NULL, assigned_at = NULL
        WHERE number = $2 AND account_id = $1 AND kind = 'paid'`,
      [accountId, number],
    );
    return rowCount > 0;
  }

  /** Available numbers whose digits contain `contains`, cheapest first. */
  async listAvailable(contains: string, limit: number): Promise<Array<{ number: string; annualPriceCents: number }>> {
    const { rows } = await sql<{ number: string; annualPriceCents: number }>(
      this.dataSource,
      `SELECT number, annual_price_cents AS "annualPriceCents" FROM dedicated_numbers
        WHERE status = 'available' AND ${NOT_IN_USE} AND ($1 = '' OR strpos(number, $1) > 0)
        ORDER BY annual_price_cents, number LIMIT $2`,
      [contains, limit],
    );
    return rows;
  }
  async priceOf(number: string, tx?: Tx): Promise<number | null> {
    const { rows } = await sql<{ annual_price_cents: number }>(tx ?? this.dataSource, `SELECT annual_price_cents FROM dedicated_numbers WHERE number = $1`, [number]);
    return rows[0]?.annual_price_cents ?? null;
  }
}
