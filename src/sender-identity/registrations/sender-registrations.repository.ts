import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Page } from '../../common/http/pagination';
import { paged, sql } from '../../database/sql';
import { Tx } from '../../database/unit-of-work';
import type { RegistrationState, SenderRegistration } from './sender-registration.entity';

export type NewRegistration = Pick<SenderRegistration, 'accountId' | 'sender' | 'brandKey' | 'businessName' | 'abn' | 'reason' | 'userId' | 'apiKeyId' | 'submittedAt'>;

/** A registration with its account's name (the operator's list). */
export type RegistrationWithAccount = SenderRegistration & { accountName: string };

const ROW = `r.id, r.account_id AS "accountId", r.sender, r.brand_key AS "brandKey", r.business_name AS "businessName", r.abn, r.reason, r.state,
  r.rejection_reason AS "rejectionReason", r.user_id AS "userId", r.api_key_id AS "apiKeyId", r.submitted_at AS "submittedAt", r.decided_at AS "decidedAt"`;

@Injectable()
export class SenderRegistrationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Inserts a submitted registration unless its brand already has a live one (submitted or approved) on
   * any account: the partial unique index decides, so of two accounts racing for one brand exactly one
   * wins (the other waits for the first to commit and then inserts nothing). Null when not inserted.
   */
  async insertUnlessBrandTaken(r: NewRegistration, tx: Tx): Promise<SenderRegistration | null> {
    const { rows } = await sql<SenderRegistration>(
      tx,
      `INSERT INTO sender_registrations AS r (account_id, sender, brand_key, business_name, abn, reason, state, user_id, api_key_id, submitted_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'submitted', $7, $8, $9)
       ON CONFLICT (brand_key) WHERE state IN ('submitted', 'approved') DO NOTHING
       RETURNING ${ROW}`,
      [r.accountId, r.sender, r.brandKey, r.businessName, r.abn, r.reason, r.userId, r.apiKeyId, r.submittedAt.toISOString()],
    );
    return rows[0] ?? null;
  }

  async findLiveByBrand(brandKey: string, tx: Tx): Promise<SenderRegistration | null> {
    const { rows } = await sql<SenderRegistration>(tx, `SELECT ${ROW} FROM sender_registrations r WHERE brand_key = $1 AND state IN ('submitted', 'approved')`, [brandKey]);
    return rows[0] ?? null;
  }

  async page(accountId: number, state: RegistrationState | undefined, page: Page): Promise<{ total: number; rows: SenderRegistration[] }> {
    const params: unknown[] = [accountId];
    let where = 'r.account_id = $1';
    if (state) {
      params.push(state);
      where += ' AND r.state = $2';
    }
    const p = paged(params, page);
    const [count, rows] = await Promise.all([
      sql<{ total: number }>(this.dataSource, `SELECT count(*)::int AS total FROM sender_registrations r WHERE ${where}`, params),
      sql<SenderRegistration>(this.dataSource, `SELECT ${ROW} FROM sender_registrations r WHERE ${where} ORDER BY r.id DESC ${p.clause}`, p.params),
    ]);
    return { total: count.rows[0].total, rows: rows.rows };
  }

  /** Every registration (or those in one state), oldest first, with account names: the operator's review queue. */
  async listAll(state: RegistrationState | undefined): Promise<RegistrationWithAccount[]> {
    const { rows } = await sql<RegistrationWithAccount>(
      this.dataSource,
      `SELECT ${ROW}, a.name AS "accountName" FROM sender_registrations r JOIN accounts a ON a.id = r.account_id
        WHERE $1::text IS NULL OR r.state = $1 ORDER BY r.id`,
      [state ?? null],
    );
    return rows;
  }

  async findById(id: number, tx?: Tx): Promise<SenderRegistration | null> {
    const { rows } = await sql<SenderRegistration>(tx ?? this.dataSource, `SELECT ${ROW} FROM sender_registrations r WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }

  /** submitted → approved or rejected, once (a conditional UPDATE); null when it is not waiting for review. */
  async decide(id: number, state: 'approved' | 'rejected', rejectionReason: string | null, at: Date, tx: Tx): Promise<SenderRegistration | null> {
    const { rows } = await sql<SenderRegistration>(
      tx,
      `UPDATE sender_registrations r SET state = $2, rejection_reason = $3, decided_at = $4 WHERE id = $1 AND state = 'submitted' RETURNING ${ROW}`,
      [id, state, rejectionReason, at.toISOString()],
    );
    return rows[0] ?? null;
  }
}
