import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../database/sql';
import { Tx } from '../database/unit-of-work';

/** The thresholds of sending-brake.policy.ts as SQL parameters. */
export interface BrakeLimits {
  allowance: number;
  multiplier: number;
  /** The baseline's factor per hour (0.5 ^ (1 / half-life)). */
  decayPerHour: number;
}

export interface BrakeWindow {
  /** Start of the current clock hour (UTC). */
  hourStart: Date;
  /** How far into that hour now is, 0 to 1. */
  fraction: number;
}

export interface BrakeState {
  pausedAt: Date | null;
  pausedVolume: number | null;
  pausedLimit: number | null;
  /** The last hour's messages now, and the limit now. */
  lastHour: number;
  limit: number;
}

// Expressions over the stored row b, rolled forward to the current hour. Parameters: $2 the hour's start,
// $3 the fraction of it gone, $5 allowance, $6 multiplier, $7 decay per hour. Whole hours since the row's hour:
const GAP = `GREATEST(0, round(extract(epoch FROM ($2::timestamptz - b.hour_start)) / 3600))`;
const CURRENT = `(CASE WHEN ${GAP} = 0 THEN b.hour_count ELSE 0 END)`;
const PREVIOUS = `(CASE WHEN ${GAP} = 0 THEN b.previous_count WHEN ${GAP} = 1 THEN b.hour_count ELSE 0 END)`;
/** A finished hour becomes the baseline when it was busier than the baseline has faded to. */
const BASELINE = `(CASE WHEN ${GAP} = 0 THEN b.baseline ELSE GREATEST(b.baseline * power($7::float8, ${GAP}), b.hour_count::float8) END)`;
/** The last 60 minutes, estimated: the part of the previous hour still inside them, plus this hour. */
const LAST_HOUR = `(${PREVIOUS} * (1 - $3::float8) + ${CURRENT})`;
const LIMIT = `GREATEST($5::float8, $6::float8 * ${BASELINE})`;

/** The sending_brakes rows. */
@Injectable()
export class SendingBrakeRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Counts `count` messages of a send in the send's transaction, if the account is not paused and the
   * last hour with them stays within the limit: one UPDATE, which holds the row until the send commits,
   * so a concurrent send is judged with these messages counted. false: not counted (no row, paused, or over).
   */
  async admit(accountId: number, count: number, window: BrakeWindow, limits: BrakeLimits, tx: Tx): Promise<boolean> {
    const { rowCount } = await sql(
      tx,
      `UPDATE sending_brakes b
          SET hour_start = GREATEST(b.hour_start, $2::timestamptz), hour_count = ${CURRENT} + $4, previous_count = ${PREVIOUS}, baseline = ${BASELINE}
        WHERE b.account_id = $1 AND b.paused_at IS NULL AND ${LAST_HOUR} + $4 <= ${LIMIT}`,
      this.params(accountId, count, window, limits),
      // Every live send runs it: planned once per connection (its CASE expressions cost more to plan than to run).
      { prepared: true },
    );
    return rowCount > 0;
  }

  /** The account's first send: its row, with nothing counted yet (a concurrent first send makes it once). */
  async create(accountId: number, window: BrakeWindow, tx: Tx): Promise<void> {
    await sql(tx, `INSERT INTO sending_brakes (account_id, hour_start) VALUES ($1, $2) ON CONFLICT (account_id) DO NOTHING`, [accountId, window.hourStart.toISOString()]);
  }

  /** Where the account stands now; null before its first send. */
  async stateOf(accountId: number, window: BrakeWindow, limits: BrakeLimits, tx?: Tx): Promise<BrakeState | null> {
    const { rows } = await sql<{ paused_at: Date | null; paused_volume: number | null; paused_limit: number | null; last_hour: number; limit: number }>(
      tx ?? this.dataSource,
      `SELECT b.paused_at, b.paused_volume, b.paused_limit, ${LAST_HOUR}::float8 AS last_hour, ${LIMIT}::float8 AS limit
         FROM sending_brakes b WHERE b.account_id = $1 AND $4::int IS NOT NULL`,
      this.params(accountId, 0, window, limits),
    );
    const r = rows[0];
    if (!r) return null;
    return { pausedAt: r.paused_at, pausedVolume: r.paused_volume, pausedLimit: r.paused_limit, lastHour: Number(r.last_hour), limit: Number(r.limit) };
  }

  /**
   * Pauses sending; true only for the call that paused it (so the owner and operators are told once). Makes
   * the row when the held send was the account's first (its own insert rolled back with it).
   */
  async pause(accountId: number, at: Date, volume: number, limit: number, window: BrakeWindow, tx: Tx): Promise<boolean> {
    const { rowCount } = await sql(
      tx,
      `INSERT INTO sending_brakes AS b (account_id, hour_start, paused_at, paused_volume, paused_limit) VALUES ($1, $5, $2, $3, $4)
       ON CONFLICT (account_id) DO UPDATE SET paused_at = EXCLUDED.paused_at, paused_volume = EXCLUDED.paused_volume, paused_limit = EXCLUDED.paused_limit
        WHERE b.paused_at IS NULL`,
      [accountId, at.toISOString(), volume, limit, window.hourStart.toISOString()],
    );
    return rowCount > 0;
  }

  /**
   * Releases a paused account: the volume that tripped it becomes its baseline (someone judged it normal),
   * so the same level goes through and only a further jump pauses it again. Answers what was released.
   */
  async release(accountId: number, tx: Tx): Promise<{ pausedAt: Date; pausedVolume: number | null } | null> {
    const { rows } = await sql<{ paused_at: Date; paused_volume: number | null }>(
      tx,
      `UPDATE sending_brakes b SET paused_at = NULL, baseline = GREATEST(b.baseline, COALESCE(b.paused_volume, 0)), paused_volume = NULL, paused_limit = NULL
         FROM (SELECT account_id, paused_at, paused_volume FROM sending_brakes WHERE account_id = $1 AND paused_at IS NOT NULL FOR UPDATE) old
        WHERE b.account_id = old.account_id
        RETURNING old.paused_at, old.paused_volume`,
      [accountId],
    );
    return rows[0] ? { pausedAt: rows[0].paused_at, pausedVolume: rows[0].paused_volume } : null;
  }

  private params(accountId: number, count: number, window: BrakeWindow, limits: BrakeLimits): unknown[] {
    return [accountId, window.hourStart.toISOString(), window.fraction, count, limits.allowance, limits.multiplier, limits.decayPerHour];
  }
}
