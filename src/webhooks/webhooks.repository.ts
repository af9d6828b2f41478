import { Injectable } from '@nestjs/common';
import { Tx } from '../database/unit-of-work';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { KeysetCursor } from '../common/http/keyset';
import type { Page } from '../common/http/pagination';
import { paged, sql } from '../database/sql';

export type WebhookKind = 'status' | 'inbound';

/** Which attempts a page of them shows: one URL's, delivered or failed ones; each left out means all. */
export interface AttemptFilter {
  kind?: WebhookKind;
  delivered?: boolean;
}

export interface AttemptRow {
  id: number;
  event_id: number;
  kind: WebhookKind;
  url: string;
  attempt: number;
  response_status: number | null;
  error: string;
  delivered: boolean;
  created_at: Date;
}

/** What a status webhook repeats of the part's message. */
export interface MessageOfChange {
  to: string;
  sender: string;
  body: string;
  customRef: string | null;
}

/** A receipt's status event, its body built from its message's row (insertReceiptEvents). */
export interface ReceiptEvent {
  accountId: number;
  messageId: string;
  status: string;
  /** formatUtc of when the part reached its state. */
  receivedAt: string;
  partNumber: number;
  totalParts: number;
  /** JSON members after total_parts, each with its leading comma ('' for none): the carrier_error extension. */
  extension: string;
}

export interface NewWebhookEvent {
  accountId: number;
  kind: WebhookKind;
  body: string;
}

/** A finished event made due again; its attempts count on, so one more failure ends it (no new retries). */
const DUE_AGAIN = `state = 'pending', next_attempt_at = now(), finished_at = NULL, locked_until = NULL, leased_by = NULL`;

@Injectable()
export class WebhooksRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async settings(accountId: number): Promise<{ inbound: string; status: string; hasSecret: boolean } | null> {
    const { rows } = await sql<{ webhook_inbound_url: string; webhook_status_url: string; has_secret: boolean }>(
      this.dataSource,
      `SELECT webhook_inbound_url, webhook_status_url, webhook_secret IS NOT NULL AS has_secret FROM accounts WHERE id = $1`,
      [accountId],
    );
    const row = rows[0];
    return row ? { inbound: row.webhook_inbound_url, status: row.webhook_status_url, hasSecret: row.has_secret } : null;
  }

  async updateUrls(accountId: number, urls: { inbound?: string; status?: string }, tx?: Tx): Promise<void> {
    await sql(
      tx ?? this.dataSource,
      `UPDATE accounts SET webhook_inbound_url = COALESCE($2, webhook_inbound_url), webhook_status_url = COALESCE($3, webhook_status_url) WHERE id = $1`,
      [accountId, urls.inbound ?? null, urls.status ?? null],
    );
  }

  async setSecret(accountId: number, secret: string, tx?: Tx): Promise<void> {
    await sql(tx ?? this.dataSource, `UPDATE accounts SET webhook_secret = $2 WHERE id = $1`, [accountId, secret]);
  }

  /** Which of these accounts have a URL for this kind of event (events are only made for them). */
  async accountsWithUrl(accountIds: number[], kind: WebhookKind, tx: Tx): Promise<Set<number>> {
    const column = kind === 'status' ? 'webhook_status_url' : 'webhook_inbound_url';
    const { rows } = await sql<{ id: number }>(tx, `SELECT id FROM accounts WHERE id = ANY($1::int[]) AND ${column} <> ''`, [accountIds]);
    return new Set(rows.map((r) => r.id));
  }

  /**
   * One status event per receipt whose message this account has, in the receipts' order, each body
   * built in the statement from the message's row: byte for byte what `receiptBody` writes (to_json
   * escapes a text as JSON.stringify does; the webhooks e2e suite compares the two). Node sends only the
   * receipts' keys: no message text is read into node, and no body sent back.
   */
  async insertReceiptEvents(receipts: ReceiptEvent[], tx: Tx): Promise<number> {
    if (receipts.length === 0) return 0;
    const { rowCount } = await sql(
      tx,
      `INSERT INTO webhook_events (account_id, kind, body)
       SELECT k.account_id, 'status',
              '{"to":' || to_json(m.to_number) || ',"sender":' || to_json(m.sender) || ',"message":' || to_json(m.body)
              || ',"custom_ref":' || to_json(COALESCE(m.custom_ref, '')) || ',"status":' || to_json(k.status)
              || ',"message_id":' || to_json(k.message_id) || ',"received_at":' || to_json(k.received_at)
              || ',"part_number":' || k.part_number || ',"total_parts":' || k.total_parts || k.extension || '}'
         FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::int[], $6::int[], $7::text[]) WITH ORDINALITY
                AS k(message_id, account_id, status, received_at, part_number, total_parts, extension, n)
         JOIN messages m ON m.id = k.message_id::uuid AND m.account_id = k.account_id
        ORDER BY k.n`,
      [
        receipts.map((r) => r.messageId),
        receipts.map((r) => r.accountId),
        receipts.map((r) => r.status),
        receipts.map((r) => r.receivedAt),
        receipts.map((r) => r.partNumber),
        receipts.map((r) => r.totalParts),
        receipts.map((r) => r.extension),
      ],
    );
    return rowCount;
  }

  async insertEvents(events: NewWebhookEvent[], tx: Tx): Promise<number> {
    if (events.length === 0) return 0;
    const { rowCount } = await sql(tx, `INSERT INTO webhook_events (account_id, kind, body) SELECT * FROM unnest($1::int[], $2::text[], $3::text[])`, [
      events.map((e) => e.accountId),
      events.map((e) => e.kind),
      events.map((e) => e.body),
    ]);
    return rowCount;
  }

  /** One event, returning its id (a test event, sent like any other). */
  async insertEvent(event: NewWebhookEvent, tx: Tx): Promise<number> {
    const { rows } = await sql<{ id: number }>(tx, `INSERT INTO webhook_events (account_id, kind, body) VALUES ($1, $2, $3) RETURNING id`, [
      event.accountId,
      event.kind,
      event.body,
    ]);
    return rows[0].id;
  }

  /**
   * Makes a finished, undelivered event due again now (one more attempt, numbered after the last). Returns
   * the state it was in ('failed' or 'discarded' when redelivered), or null when the account has no such event.
   */
  async redeliverEvent(accountId: number, eventId: number, tx: Tx): Promise<{ redelivered: boolean } | null> {
    const { rows } = await sql<{ state: string }>(tx, `SELECT state FROM webhook_events WHERE account_id = $1 AND id = $2 FOR UPDATE`, [accountId, eventId]);
    if (rows.length === 0) return null;
    if (rows[0].state !== 'failed' && rows[0].state !== 'discarded') return { redelivered: false };
    await sql(tx, `UPDATE webhook_events SET ${DUE_AGAIN} WHERE account_id = $1 AND id = $2`, [accountId, eventId]);
    return { redelivered: true };
  }

  /** Every failed event of the account created in [from, to) due again now; returns how many. */
  async redeliverFailed(accountId: number, from: Date, to: Date, tx: Tx): Promise<number> {
    const { rowCount } = await sql(tx, `UPDATE webhook_events SET ${DUE_AGAIN} WHERE account_id = $1 AND state = 'failed' AND created_at >= $2 AND created_at < $3`, [
      accountId,
      from,
      to,
    ]);
    return rowCount;
  }

  async deliveriesPage(accountId: number, kind: WebhookKind | undefined, page: Page) {
    const params: unknown[] = [accountId];
    let where = 'account_id = $1';
    if (kind) {
      params.push(kind);
      where += ' AND kind = $2';
    }
    const pageParams = paged(params, page);
    const [count, rows] = await Promise.all([
      sql<{ total: number }>(this.dataSource, `SELECT count(*) AS total FROM webhook_attempts WHERE ${where}`, params),
      sql<Omit<AttemptRow, 'id'>>(
        this.dataSource,
        `SELECT event_id, kind, url, attempt, response_status, error, delivered, created_at FROM webhook_attempts WHERE ${where} ORDER BY id DESC ${pageParams.clause}`,
        pageParams.params,
      ),
    ]);
    return { total: count.rows[0].total, rows: rows.rows };
  }

  /**
   * An account's delivery attempts beyond the cursor, in its direction (one indexed range on (account_id, id);
   * failed attempts have a partial index of their own, since a filter for the rare failures would otherwise
   * read past every delivered attempt).
   */
  async attemptsKeysetPage(accountId: number, filter: AttemptFilter, cursor: KeysetCursor, limit: number): Promise<AttemptRow[]> {
    const older = cursor.direction === 'older';
    const params: unknown[] = [accountId, cursor.from ?? (older ? Number.MAX_SAFE_INTEGER : 0), limit];
    let where = `account_id = $1 AND id ${older ? '<' : '>'} $2`;
    if (filter.kind) {
      params.push(filter.kind);
      where += ` AND kind = $${params.length}`;
    }
    if (filter.delivered !== undefined) where += filter.delivered ? ' AND delivered' : ' AND NOT delivered';
    const { rows } = await sql<AttemptRow>(
      this.dataSource,
      `SELECT id, event_id, kind, url, attempt, response_status, error, delivered, created_at FROM webhook_attempts
        WHERE ${where} ORDER BY id ${older ? 'DESC' : 'ASC'} LIMIT $3`,
      params,
    );
    return rows;
  }
}
