import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../../database/sql';
import { Tx } from '../../database/unit-of-work';

export interface TwoFactorState {
  userId: number;
  accountId: number;
  email: string;
  sealedSecret: Buffer | null;
  enabledAt: Date | null;
  lastStep: number | null;
  recoveryCodesLeft: number;
}

/** The two-factor columns of users. */
@Injectable()
export class TwoFactorRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async stateOf(userId: number, tx?: Tx, lock = false): Promise<TwoFactorState | null> {
    const { rows } = await sql<{
      id: number;
      account_id: number;
      email: string;
      totp_secret: Buffer | null;
      totp_enabled_at: Date | null;
      totp_last_step: string | null;
      left: number;
    }>(
      tx ?? this.dataSource,
      `SELECT id, account_id, email, totp_secret, totp_enabled_at, totp_last_step, cardinality(recovery_codes) AS left
         FROM users WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
      [userId],
    );
    const r = rows[0];
    if (!r) return null;
    return {
      userId: r.id,
      accountId: r.account_id,
      email: r.email,
      sealedSecret: r.totp_secret,
      enabledAt: r.totp_enabled_at,
      lastStep: r.totp_last_step === null ? null : Number(r.totp_last_step),
      recoveryCodesLeft: Number(r.left),
    };
  }

  /** A secret being enrolled (two-factor still off until a code from it is confirmed). */
  async setPendingSecret(userId: number, sealed: Buffer, tx: Tx): Promise<void> {
    await sql(tx, `UPDATE users SET totp_secret = $2 WHERE id = $1 AND totp_enabled_at IS NULL`, [userId, sealed]);
  }

  async enable(userId: number, at: Date, step: number, recoveryDigests: Buffer[], tx: Tx): Promise<void> {
    await sql(tx, `UPDATE users SET totp_enabled_at = $2, totp_last_step = $3, recovery_codes = $4::bytea[] WHERE id = $1`, [userId, at.toISOString(), step, recoveryDigests]);
  }

  /** Moves the last accepted step on, only forwards (so two racing uses of one code cannot both pass). */
  async acceptStep(userId: number, step: number, tx: Tx): Promise<boolean> {
    const { rowCount } = await sql(tx, `UPDATE users SET totp_last_step = $2 WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2)`, [userId, step]);
    return (rowCount ?? 0) > 0;
  }

  /** Uses a recovery code: true when it was one of the user's unused codes (removed now). */
  async useRecoveryCode(userId: number, digest: Buffer, tx: Tx): Promise<boolean> {
    const { rowCount } = await sql(tx, `UPDATE users SET recovery_codes = array_remove(recovery_codes, $2::bytea) WHERE id = $1 AND $2::bytea = ANY (recovery_codes)`, [
      userId,
      digest,
    ]);
    return (rowCount ?? 0) > 0;
  }

  async replaceRecoveryCodes(userId: number, digests: Buffer[], tx: Tx): Promise<void> {
    await sql(tx, `UPDATE users SET recovery_codes = $2::bytea[] WHERE id = $1`, [userId, digests]);
  }

  /** Turns two-factor off: the secret, its steps and the recovery codes are gone. */
  async disable(userId: number, tx: Tx): Promise<void> {
    await sql(tx, `UPDATE users SET totp_secret = NULL, totp_enabled_at = NULL, totp_last_step = NULL, recovery_codes = '{}' WHERE id = $1`, [userId]);
  }
}
