import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../database/sql';
import { Tx } from '../database/unit-of-work';
import type { Purchase, PurchaseState } from './purchase.entity';

const COLUMNS = `id, account_id AS "accountId", api_key_id AS "apiKeyId", api_key_label AS "apiKeyLabel", api_username AS "apiUsername",
  idempotency_key AS "idempotencyKey", fingerprint, request_key AS "requestKey", actor, actor_user_id AS "actorUserId", actor_ip AS "actorIp", kind, state, credits, number, card_id AS "cardId", card_last4 AS "cardLast4",
  amount_ex_gst_cents AS "amountExGstCents", gst_cents AS "gstCents", amount_inc_gst_cents AS "amountIncGstCents", provider,
  provider_payment_id AS "providerPaymentId", invoice_number AS "invoiceNumber", created_at AS "createdAt", charged_at AS "chargedAt",
  settled_at AS "settledAt", invoice_emailed_at AS "invoiceEmailedAt"`;

export type NewPurchase = Omit<
  Purchase,
  'id' | 'state' | 'providerPaymentId' | 'invoiceNumber' | 'chargedAt' | 'settledAt' | 'invoiceEmailedAt' | 'requestKey' | 'actor' | 'actorUserId' | 'actorIp'
> & {
  requestKey?: string | null;
  /** Who started a purchase made without an API key (its audit entries name them); absent for one by API key. */
  actor?: { email: string; userId: number | null; ip: string };
};

/** States that hold a share of the key's daily limit: a purchase on its way, or paid. */
const SPENDING = `('created', 'charged', 'fulfilled', 'held')`;

@Injectable()
export class PurchasesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The purchase an Idempotency-Key of this API key started within the key's lifetime, if any. */
  async findByIdempotencyKey(apiKeyId: number, key: string, since: Date, tx: Tx): Promise<Purchase | null> {
    const { rows } = await sql<Purchase>(tx, `SELECT ${COLUMNS} FROM purchases WHERE api_key_id = $1 AND idempotency_key = $2 AND created_at > $3`, [
      apiKeyId,
      key,
      since.toISOString(),
    ]);
    return rows[0] ?? null;
  }

  /** An expired Idempotency-Key is treated as new (interface): the old purchase lets go of it. */
  async forgetIdempotencyKey(apiKeyId: number, key: string, tx: Tx): Promise<void> {
    await sql(tx, `UPDATE purchases SET idempotency_key = NULL WHERE api_key_id = $1 AND idempotency_key = $2`, [apiKeyId, key]);
  }

  /** What the key spent (or reserved) since then, in cents inc. GST; renewals are not the key's spending. */
  async spentSince(apiKeyId: number, since: Date, tx: Tx): Promise<number> {
    const { rows } = await sql<{ total: number }>(
      tx,
      `SELECT COALESCE(SUM(amount_inc_gst_cents), 0)::bigint AS total FROM purchases
        WHERE api_key_id = $1 AND kind <> 'renewal' AND state IN ${SPENDING} AND created_at > $2`,
      [apiKeyId, since.toISOString()],
    );
    return rows[0].total;
  }

  async insert(p: NewPurchase, tx: Tx): Promise<Purchase> {
    const inserted = await this.insertUnlessKeyTaken(p, tx);
    if (!inserted) throw new Error(`purchase request key ${p.requestKey} taken`);
    return inserted;
  }

  /** Null when a purchase with the same request key exists already (a double-submitted form): one INSERT … ON CONFLICT DO NOTHING. */
  async insertUnlessKeyTaken(p: NewPurchase, tx: Tx): Promise<Purchase | null> {
    const { rows } = await sql<Purchase>(
      tx,
      `INSERT INTO purchases (account_id, api_key_id, api_key_label, api_username, idempotency_key, fingerprint, kind, credits, number, card_id, card_last4,
                              amount_ex_gst_cents, gst_cents, amount_inc_gst_cents, provider, created_at, request_key, actor, actor_user_id, actor_ip)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)
       ON CONFLICT (account_id, request_key) WHERE request_key IS NOT NULL DO NOTHING
       RETURNING ${COLUMNS}`,
      [
        p.accountId,
        p.apiKeyId,
        p.apiKeyLabel,
        p.apiUsername,
        p.idempotencyKey,
        p.fingerprint,
        p.kind,
        p.credits,
        p.number,
        p.cardId,
        p.cardLast4,
        p.amountExGstCents,
        p.gstCents,
        p.amountIncGstCents,
        p.provider,
        p.createdAt.toISOString(),
        p.requestKey ?? null,
        p.actor?.email ?? null,
        p.actor?.userId ?? null,
        p.actor?.ip ?? '',
      ],
    );
    return rows[0] ?? null;
  }

  /** The purchase a request key (a Billing form's own key) made for this account, if any. */
  async byRequestKey(accountId: number, requestKey: string, tx: Tx): Promise<Purchase | null> {
    const { rows } = await sql<Purchase>(tx, `SELECT ${COLUMNS} FROM purchases WHERE account_id = $1 AND request_key = $2`, [accountId, requestKey]);
    return rows[0] ?? null;
  }

  /** Purchases of the account whose request key starts so (but is not `exceptKey`), created since then and on their way or paid. */
  async countByRequestPrefixSince(accountId: number, prefix: string, since: Date, exceptKey: string): Promise<number> {
    const { rows } = await sql<{ n: number }>(
      this.dataSource,
      `SELECT count(*)::int AS n FROM purchases
        WHERE account_id = $1 AND request_key LIKE $2 || '%' AND request_key <> $4 AND state IN ${SPENDING} AND created_at > $3`,
      [accountId, prefix, since.toISOString(), exceptKey],
    );
    return rows[0].n;
  }

  async byIdInAccount(accountId: number, id: number): Promise<Purchase | null> {
    const { rows } = await sql<Purchase>(this.dataSource, `SELECT ${COLUMNS} FROM purchases WHERE account_id = $1 AND id = $2`, [accountId, id]);
    return rows[0] ?? null;
  }

  async byId(id: number, tx?: Tx): Promise<Purchase | null> {
    const { rows } = await sql<Purchase>(tx ?? this.dataSource, `SELECT ${COLUMNS} FROM purchases WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }

  /**
   * One step of the state machine as one conditional UPDATE: only a purchase still in `from` moves, so
   * of two processes settling the same purchase (a retry, the reconciler) exactly one makes each step.
   * Answers the moved purchase, or null when another got there first.
   */
  async transition(
    id: number,
    from: readonly PurchaseState[],
    to: PurchaseState,
    at: Date,
    set: { providerPaymentId?: string | null; invoice?: boolean } = {},
    tx: Tx,
  ): Promise<Purchase | null> {
    const charged = set.invoice === true;
    const { rows } = await sql<Purchase>(
      tx,
      `UPDATE purchases SET state = $3,
              provider_payment_id = COALESCE($4, provider_payment_id),
              invoice_number = CASE WHEN $5 AND invoice_number IS NULL THEN 'INV-' || lpad(id::text, 8, '0') ELSE invoice_number END,
              charged_at = CASE WHEN $5 AND charged_at IS NULL THEN $6::timestamptz ELSE charged_at END,
              settled_at = CASE WHEN $3 IN ('fulfilled', 'declined', 'held', 'refunded') THEN $6::timestamptz ELSE settled_at END
        WHERE id = $1 AND state = ANY($2::text[])
        RETURNING ${COLUMNS}`,
      [id, from, to, set.providerPaymentId ?? null, charged, at.toISOString()],
    );
    return rows[0] ?? null;
  }

  /** Purchases left unsettled (a crash, a lost answer) since before `before`, oldest first. */
  async unsettledIds(before: Date, limit: number): Promise<number[]> {
    const { rows } = await sql<{ id: number }>(this.dataSource, `SELECT id FROM purchases WHERE state IN ('created', 'charged') AND created_at < $1 ORDER BY created_at LIMIT $2`, [
      before.toISOString(),
      limit,
    ]);
    return rows.map((r) => r.id);
  }

  /** Charged purchases whose invoice mail did not go (a crash after the commit). */
  async invoicesNotEmailed(before: Date, limit: number): Promise<number[]> {
    const { rows } = await sql<{ id: number }>(
      this.dataSource,
      `SELECT id FROM purchases WHERE invoice_number IS NOT NULL AND invoice_emailed_at IS NULL AND charged_at < $1 ORDER BY id LIMIT $2`,
      [before.toISOString(), limit],
    );
    return rows.map((r) => r.id);
  }

  /** Claims the invoice mail of a purchase once (true for the one process that should send it). */
  async claimInvoiceMail(id: number, at: Date): Promise<boolean> {
    const { rowCount } = await sql(this.dataSource, `UPDATE purchases SET invoice_emailed_at = $2 WHERE id = $1 AND invoice_emailed_at IS NULL`, [id, at.toISOString()]);
    return rowCount > 0;
  }

  async unclaimInvoiceMail(id: number): Promise<void> {
    await sql(this.dataSource, `UPDATE purchases SET invoice_emailed_at = NULL WHERE id = $1`, [id]);
  }

  /** The account's invoices (charged purchases), newest first. */
  async invoices(accountId: number, limit: number): Promise<Purchase[]> {
    const { rows } = await sql<Purchase>(this.dataSource, `SELECT ${COLUMNS} FROM purchases WHERE account_id = $1 AND invoice_number IS NOT NULL ORDER BY id DESC LIMIT $2`, [
      accountId,
      limit,
    ]);
    return rows;
  }

  async byInvoiceNumber(accountId: number, invoiceNumber: string): Promise<Purchase | null> {
    const { rows } = await sql<Purchase>(this.dataSource, `SELECT ${COLUMNS} FROM purchases WHERE account_id = $1 AND invoice_number = $2`, [accountId, invoiceNumber]);
    return rows[0] ?? null;
  }

  /** A renewal of this number still open (on its way, or held for review): no second attempt meanwhile. */
  async hasOpenRenewal(accountId: number, number: string, tx: Tx): Promise<boolean> {
    const { rows } = await sql(tx, `SELECT 1 FROM purchases WHERE account_id = $1 AND number = $2 AND kind = 'renewal' AND state IN ('created', 'charged', 'held') LIMIT 1`, [
      accountId,
      number,
    ]);
    return rows.length > 0;
  }
}
