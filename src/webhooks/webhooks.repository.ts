import { Injectable } from '@nestjs/common';
import { Tx } from '../database/unit-of-work';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { KeysetCursor } from '../common/http/keyset';
import type { Page } from '../common/http/pagination';
import { indexOrderOnly, keyLookupsOnly, paged, sql } from '../database/sql';
import { type ClaimExclusions, NO_EXCLUSIONS } from './claim-planner';

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

export interface ClaimedEvent {
  id: number;
  account_id: number;
  kind: WebhookKind;
  body: string;
  attempts: number;
  /** The account's URL for this kind now ('' when switched off): changes apply to the next attempt. */
  url: string;
  secret: string | null;
}

/**
 * delivered: 2xx; failed: recorded and retried; discarded: URL switched off; deferred: host busy, or the
 * lease too near its end to start an attempt: try shortly without counting.
 */
export const ATTEMPT_RESULTS = ['delivered', 'failed', 'discarded', 'deferred'] as const;

export interface AttemptOutcome {
  event: ClaimedEvent;
  result: (typeof ATTEMPT_RESULTS)[number];
  responseStatus: number | null;
  error: string;
  durationMs: number;
  /** For failed and deferred: when to try again (null when the retries are used up). */
  nextAttemptAt: Date | null;
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

  /**
   * Leases due events to this holder (SKIP LOCKED: deliverers never share one), with the account's current
   * URL and secret. `held`: events this holder still has out whose lease may have run out, left alone.
   * `excluding`: accounts whose events of that kind are left alone (their receiving host is full); the scan
   * reads past their due events, so the deliverer spaces out claims that leave accounts out.
   */
  async claimDue(limit: number, leaseMs: number, holder: string, held: number[], excluding: Readonly<ClaimExclusions> = NO_EXCLUSIONS): Promise<ClaimedEvent[]> {
    return this.dataSource.transaction(async (tx) => {
      await indexOrderOnly(tx);
      // The picked ids join the events one by one (each lookup reads its own day's partition): an
      // `id = ANY(ARRAY(...))` was searched for in every partition, about 44 buffers a claimed event.
      const { rows } = await sql<Omit<ClaimedEvent, 'url' | 'secret'>>(
        tx,
        `WITH picked AS MATERIALIZED (
           SELECT id FROM webhook_events
            WHERE state = 'pending' AND next_attempt_at <= now() AND (locked_until IS NULL OR locked_until < now())
              AND id <> ALL($4::bigint[])
              AND NOT (kind = 'status' AND account_id = ANY($5::int[])) AND NOT (kind = 'inbound' AND account_id = ANY($6::int[]))
            ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED
         )
         UPDATE webhook_events e SET locked_until = now() + $2 * interval '1 millisecond', leased_by = $3
           FROM picked p
          WHERE e.id = p.id
          RETURNING e.id, e.account_id, e.kind, e.body, e.attempts`,
        [limit, leaseMs, holder, held, excluding.status, excluding.inbound],
      );
      if (rows.length === 0) return [];
      // The accounts' URLs and secrets once per account in the claim (a claim's events are mostly a few
      // accounts'), not joined and sent back with every event.
      const { rows: accounts } = await sql<{ id: number; status: string; inbound: string; secret: string | null }>(
        tx,
        `SELECT id, webhook_status_url AS status, webhook_inbound_url AS inbound, webhook_secret AS secret FROM accounts WHERE id = ANY($1::int[])`,
        [[...new Set(rows.map((r) => r.account_id))]],
      );
      const byId = new Map(accounts.map((a) => [a.id, a]));
      const events = rows as ClaimedEvent[];
      for (const event of events) {
        const account = byId.get(event.account_id);
        // Always found: an event's account exists when it is stored, and deleting the account waits for
        // this claim's row locks. Were it missing, the event would be dropped as if its URL were off.
        event.url = account ? (event.kind === 'status' ? account.status : account.inbound) : '';
        event.secret = account ? account.secret : null;
      }
      return events;
    });
  }

  /**
   * Extends the holder's leases of these events; the ids returned are still its own. A holder never runs
   * this and recordOutcomes at once (WebhookLeases.exclusive): the two update the same events, and
   * together, each locking rows in its own order, they deadlocked, and the loser's events were sent again
   * once their leases ran out. Another holder's statements meet these rows only when one of the two lost a
   * lease to the other; both update in ascending id order (the ids sorted, joined by key in array order),
   * and should a plan ever lock otherwise, PostgreSQL aborts one of a deadlocked pair and its events are
   * attempted again (at least once, as promised).
   */
  async renewLeases(holder: string, eventIds: number[], leaseMs: number): Promise<number[]> {
    if (eventIds.length === 0) return [];
    const ids = [...eventIds].sort((a, b) => a - b);
    const { rows } = await this.byKey((tx) =>
      sql<{ id: string }>(
        tx,
        `UPDATE webhook_events e SET locked_until = now() + $3 * interval '1 millisecond'
           FROM unnest($2::bigint[]) AS k(id)
          WHERE e.id = k.id AND e.leased_by = $1 AND e.state = 'pending'
          RETURNING e.id`,
        [holder, ids, leaseMs],
        { prepared: true },
      ),
    );
    return rows.map((r) => Number(r.id));
  }

  /**
   * Every attempt logged and every event moved on, in one transaction, for the events this holder still
   * leases at the attempt count it claimed them with: an outcome whose lease another deliverer has taken
   * meanwhile is not recorded, so each attempt number is counted and logged once. Returns how many
   * outcomes were not recorded for that reason. Never run at once with renewLeases by one holder (see there).
   * Both statements go by key from the outcomes (nested loops over the primary key): planned with
   * statistics from before a burst of events, a join of the outcomes to the events became a nested
   * loop over every pending event of the day (0.1–0.8 s for a few hundred outcomes).
   */
  async recordOutcomes(holder: string, unordered: AttemptOutcome[]): Promise<number> {
    if (unordered.length === 0) return 0;
    const outcomes = [...unordered].sort((a, b) => a.event.id - b.event.id);
    const state = (o: AttemptOutcome) => (o.result === 'delivered' ? 'delivered' : o.result === 'discarded' ? 'discarded' : o.nextAttemptAt === null ? 'failed' : 'pending');
    const counted = (o: AttemptOutcome) => o.result === 'delivered' || o.result === 'failed';
    const ids = outcomes.map((o) => o.event.id);
    const { rows } = await this.byKey((tx) =>
      sql<{ recorded: number }>(
        tx,
        `WITH moved AS (
           UPDATE webhook_events e
              SET state = u.state, attempts = e.attempts + u.counted::int, locked_until = NULL, leased_by = NULL,
                  next_attempt_at = COALESCE(u.next_at, e.next_attempt_at),
                  finished_at = CASE WHEN u.state = 'pending' THEN NULL ELSE now() END
             FROM unnest($2::bigint[], $3::int[], $4::text[], $5::text[], $6::int[], $7::text[], $8::boolean[], $9::timestamptz[], $10::int[], $11::text[], $12::int[])
                    AS u(id, account_id, kind, url, claimed_attempts, state, counted, next_at, response_status, error, duration_ms)
            WHERE e.id = u.id AND e.leased_by = $1 AND e.attempts = u.claimed_attempts AND e.state = 'pending'
            RETURNING e.id, u.account_id, u.kind, u.url, u.claimed_attempts, u.response_status, u.error, u.duration_ms, u.state, u.counted
         ), logged AS (
           INSERT INTO webhook_attempts (event_id, account_id, kind, url, attempt, response_status, error, duration_ms, delivered)
           SELECT id, account_id, kind, url, claimed_attempts + 1, response_status, error, duration_ms, state = 'delivered'
             FROM moved
            WHERE counted
         )
         SELECT count(*)::int AS recorded FROM moved`,
        [
          holder,
          ids,
          outcomes.map((o) => o.event.account_id),
          outcomes.map((o) => o.event.kind),
          outcomes.map((o) => o.event.url),
          outcomes.map((o) => o.event.attempts),
          outcomes.map(state),
          outcomes.map(counted),
          outcomes.map((o) => (o.nextAttemptAt ? o.nextAttemptAt.toISOString() : null)),
          outcomes.map((o) => o.responseStatus),
          outcomes.map((o) => o.error),
          outcomes.map((o) => Math.round(o.durationMs)),
        ],
        { prepared: true },
      ),
    );
    return outcomes.length - rows[0].recorded;
  }

  /** Runs `work` in a transaction planned with nested loops by key (keyLookupsOnly). */
  private byKey<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (tx) => {
      await keyLookupsOnly(tx);
      return work(tx);
    });
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

  async dueCount(): Promise<{ due: number; next: Date | null }> {
    const { rows } = await sql<{ due: number; next: Date | null }>(
      this.dataSource,
      `SELECT count(*) FILTER (WHERE next_attempt_at <= now() AND (locked_until IS NULL OR locked_until < now())) AS due, min(next_attempt_at) AS next
         FROM webhook_events WHERE state = 'pending'`,
    );
    return rows[0];
  }
}
