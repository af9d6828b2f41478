import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../database/sql';
import { Tx } from '../database/unit-of-work';
import type { LiveRequestState } from './live-request.entity';

export interface LiveRequestRecord {
  id: number;
  accountId: number;
  userId: number | null;
  businessName: string;
  abn: string;
  website: string;
  intendedUse: string;
  state: LiveRequestState;
  declineReason: string | null;
  /** Hundredths; null until approved. */
  startingCredits: number | null;
  submittedAt: Date;
  decidedAt: Date | null;
}

export interface LiveRequestWithAccount extends LiveRequestRecord {
  accountName: string;
  ownerEmail: string | null;
}

const COLUMNS = `r.id, r.account_id AS "accountId", r.user_id AS "userId", r.business_name AS "businessName", r.abn, r.website,
  r.intended_use AS "intendedUse", r.state, r.decline_reason AS "declineReason", r.starting_credits::float8 AS "startingCredits",
  r.submitted_at AS "submittedAt", r.decided_at AS "decidedAt"`;

const WITH_ACCOUNT = `SELECT ${COLUMNS}, a.name AS "accountName", (SELECT u.email FROM users u WHERE u.account_id = r.account_id AND u.is_owner) AS "ownerEmail"
  FROM live_requests r JOIN accounts a ON a.id = r.account_id`;

@Injectable()
export class LiveRequestsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Inserts a pending request; null when the account already has one waiting (the partial unique index decides races). */
  async insertUnlessPending(
    row: { accountId: number; userId: number | null; businessName: string; abn: string; website: string; intendedUse: string; submittedAt: Date },
    tx: Tx,
  ): Promise<LiveRequestRecord | null> {
    const { rows } = await sql<LiveRequestRecord>(
      tx,
      `INSERT INTO live_requests AS r (account_id, user_id, business_name, abn, website, intended_use, state, submitted_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7)
       ON CONFLICT (account_id) WHERE state = 'pending' DO NOTHING
       RETURNING ${COLUMNS}`,
      [row.accountId, row.userId, row.businessName, row.abn, row.website, row.intendedUse, row.submittedAt.toISOString()],
    );
    return rows[0] ?? null;
  }

  /** The account's newest request, whatever its state. */
  async latestOfAccount(accountId: number, tx?: Tx): Promise<LiveRequestRecord | null> {
    const { rows } = await sql<LiveRequestRecord>(tx ?? this.dataSource, `SELECT ${COLUMNS} FROM live_requests r WHERE r.account_id = $1 ORDER BY r.id DESC LIMIT 1`, [accountId]);
    return rows[0] ?? null;
  }

  async findById(id: number, tx?: Tx): Promise<LiveRequestRecord | null> {
    const { rows } = await sql<LiveRequestRecord>(tx ?? this.dataSource, `SELECT ${COLUMNS} FROM live_requests r WHERE r.id = $1`, [id]);
    return rows[0] ?? null;
  }

  /** Requests in one state (or all), oldest first, with the account's name and owner. */
  async list(state: LiveRequestState | undefined, limit: number): Promise<LiveRequestWithAccount[]> {
    const { rows } = await sql<LiveRequestWithAccount>(this.dataSource, `${WITH_ACCOUNT} WHERE $1::text IS NULL OR r.state = $1 ORDER BY r.id LIMIT $2`, [state ?? null, limit]);
    return rows;
  }

  async findWithAccount(id: number): Promise<LiveRequestWithAccount | null> {
    const { rows } = await sql<LiveRequestWithAccount>(this.dataSource, `${WITH_ACCOUNT} WHERE r.id = $1`, [id]);
    return rows[0] ?? null;
  }

  /** Decides a pending request: one conditional UPDATE, so two operators cannot both decide it. */
  async decide(
    id: number,
    decision: { state: 'approved' | 'declined'; reason: string | null; startingCredits: number | null; at: Date },
    tx: Tx,
  ): Promise<LiveRequestRecord | null> {
    const { rows } = await sql<LiveRequestRecord>(
      tx,
      `UPDATE live_requests r SET state = $2, decline_reason = $3, starting_credits = $4, decided_at = $5
        WHERE r.id = $1 AND r.state = 'pending'
        RETURNING ${COLUMNS}`,
      [id, decision.state, decision.reason, decision.startingCredits, decision.at.toISOString()],
    );
    return rows[0] ?? null;
  }
}
