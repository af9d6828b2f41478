import { Injectable } from '@nestjs/common';
import { sql } from '../database/sql';
import { Tx } from '../database/unit-of-work';
import { MESSAGE_STATUS, WITH_PART_STATUS } from '../delivery/state/message-status';

/** A message to a number while an opt-out of it was in force (one row of a set-based check). */
export interface OptedOutMessage {
  accountId: number;
  sendId: number;
  kind: string;
  messageId: string;
  number: string;
  /** When the opt-out in force was recorded. */
  optedOutAt: Date;
  /** The claim's earliest possible time (list check: when the send was accepted). */
  at: Date;
  ignoredUnsubscribes: boolean;
}

/** Most rows one check reports; more than that is reported as truncated. */
export const REPORT_LIMIT = 1000;

/** `($1::int IS NULL OR x = $1)`: every account, or the one asked for. */
const scope = (column: string) => `($1::int IS NULL OR ${column} = $1)`;

/**
 * Each number's standing with each account as spans of time: every consent record opens a span that
 * lasts until the number's next record. An unsubscribe with no consent record of the same moment (one
 * older than the records) opens an opt-out span too. Only the numbers that ever opted out are kept.
 */
const OPT_OUT_SPANS = `standing AS (
    SELECT c.account_id, c.number, c.change, c.recorded_at AS at, c.id FROM consent_records c WHERE ${scope('c.account_id')}
    UNION ALL
    SELECT u.account_id, u.number, 'opt_out', u.created_at, NULL FROM unsubscribes u
     WHERE ${scope('u.account_id')} AND NOT EXISTS (
       SELECT 1 FROM consent_records c WHERE c.account_id = u.account_id AND c.number = u.number AND c.change = 'opt_out' AND c.recorded_at = u.created_at)
  ), spans AS (
    SELECT account_id, number, change, at AS since, lead(at) OVER (PARTITION BY account_id, number ORDER BY at, id NULLS LAST) AS until FROM standing
  ), opt_outs AS (
    SELECT account_id, number, since, until FROM spans WHERE change = 'opt_out'
  )`;

const COLUMNS = `m.account_id AS "accountId", m.send_id::int AS "sendId", s.kind, m.id AS "messageId", m.to_number AS number,
  o.since AS "optedOutAt", s.ignore_unsubscribes AS "ignoredUnsubscribes"`;

/**
 * The consent invariants as queries over whole tables, each in one statement: the opt-out spans are few
 * (hashed), the messages are read once and joined to them by account and number, and only the messages
 * that meet a span have their status read. Run them in one snapshot (`useSnapshot`).
 */
@Injectable()
export class ComplianceAuditRepository {
  async useSnapshot(tx: Tx): Promise<void> {
    await sql(tx, 'SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
  }

  async accountsChecked(accountId: number | null, tx: Tx): Promise<number> {
    const { rows } = await sql<{ n: number }>(tx, `SELECT count(*)::int AS n FROM accounts WHERE ${scope('id')}`, [accountId]);
    return rows[0].n;
  }

  /**
   * Messages claimed for dispatch (read as sent, delivered or failed) that no claim could have taken
   * before an opt-out of their number was recorded: a claim takes a message only once it is due and
   * accepted, so its claim came at or after the later of `dispatch_at` and `created_at`, and an opt-out
   * in force then (recorded at or before it, with no opt-in since) was already committed or committing.
   * `ignoredUnsubscribes` chooses the messages of sends that did (listed, not violations) or did not.
   */
  async claimedWhileOptedOut(accountId: number | null, ignoredUnsubscribes: boolean, tx: Tx): Promise<OptedOutMessage[]> {
    const { rows } = await sql<OptedOutMessage>(
      tx,
      `WITH ${OPT_OUT_SPANS}
       SELECT ${COLUMNS}, greatest(m.dispatch_at, m.created_at) AS at
         FROM messages m
         JOIN opt_outs o ON o.account_id = m.account_id AND o.number = m.to_number
                        AND o.since <= greatest(m.dispatch_at, m.created_at) AND (o.until IS NULL OR greatest(m.dispatch_at, m.created_at) < o.until)
         JOIN sends s ON s.id = m.send_id AND s.ignore_unsubscribes = $2
         ${WITH_PART_STATUS}
        WHERE ${scope('m.account_id')} AND ${MESSAGE_STATUS} IN ('sent', 'delivered', 'failed')
        ORDER BY m.account_id, m.created_at, m.seq
        LIMIT ${REPORT_LIMIT}`,
      [accountId, ignoredUnsubscribes],
    );
    return rows;
  }

  /** Recipients of list sends (that did not ignore unsubscribes) with an opt-out in force when the send was accepted. */
  async listRecipientsOptedOut(accountId: number | null, tx: Tx): Promise<OptedOutMessage[]> {
    const { rows } = await sql<OptedOutMessage>(
      tx,
      `WITH ${OPT_OUT_SPANS}
       SELECT ${COLUMNS}, s.created_at AS at
         FROM messages m
         JOIN sends s ON s.id = m.send_id AND s.kind = 'list' AND NOT s.ignore_unsubscribes
         JOIN opt_outs o ON o.account_id = m.account_id AND o.number = m.to_number AND o.since <= s.created_at AND (o.until IS NULL OR s.created_at < o.until)
        WHERE ${scope('m.account_id')}
        ORDER BY m.account_id, m.send_id, m.seq
        LIMIT ${REPORT_LIMIT}`,
      [accountId],
    );
    return rows;
  }
}
