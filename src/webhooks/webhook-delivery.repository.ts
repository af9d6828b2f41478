import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { indexOrderOnly, keyLookupsOnly, sql } from '../database/sql';
import { type ClaimExclusions, NO_EXCLUSIONS } from './claim-planner';
import type { WebhookKind } from './webhooks.repository';

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

/**
 * The deliverer's statements: leasing due events, keeping the leases, and recording attempts' outcomes.
 * The API's reads and writes of events and attempts are WebhooksRepository's.
 */
@Injectable()
export class WebhookDeliveryRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

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
}
