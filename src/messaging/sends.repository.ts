import { Injectable } from '@nestjs/common';
import { Tx } from '../database/unit-of-work';
import { sql } from '../database/sql';
import type { SendKind } from './send.entity';

export interface NewSend {
  accountId: number;
  apiKeyId: number | null;
  kind: SendKind;
  listId?: number | null;
  ignoreUnsubscribes: boolean;
  shortenUrls?: boolean;
  customRef?: string | null;
  scheduledFor?: Date | null;
  staggerMinutes?: number | null;
  messageCount: number;
  totalCost: number;
  /** Recipients blocked at acceptance (unsubscribed), kept for the campaign pages. */
  blockedCount?: number;
  /** The request that created it (X-Request-Id), for tracing. */
  requestId?: string | null;
  /** The dashboard user who sent it. */
  userId?: number | null;
  /** The compose form's key: a second send with the same key (per account) is not stored. */
  formKey?: string | null;
}

/** The counts a send row keeps of its messages. */
export type SendTotals = Pick<NewSend, 'messageCount' | 'totalCost' | 'blockedCount'>;

@Injectable()
export class SendsRepository {
  async insert(send: NewSend, tx: Tx): Promise<number> {
    const id = await this.insertUnlessFormKeyUsed(send, tx);
    if (id === null) throw new Error(`the account already stored a send under form key ${send.formKey}`);
    return id;
  }

  /**
   * Inserts the send; null when it carries a form key the account already used (a concurrent insert of
   * the same key waits for the first to commit, then finds it taken; if the first rolls back, it wins).
   */
  async insertUnlessFormKeyUsed(send: NewSend, tx: Tx): Promise<number | null> {
    const { rows } = await sql<{ id: number }>(
      tx,
      `INSERT INTO sends (account_id, api_key_id, kind, list_id, ignore_unsubscribes, shorten_urls, custom_ref, scheduled_for, stagger_minutes, message_count, total_cost, request_id, user_id, form_key, blocked_count)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
       ON CONFLICT (account_id, form_key) WHERE form_key IS NOT NULL DO NOTHING
       RETURNING id`,
      [
        send.accountId,
        send.apiKeyId,
        send.kind,
        send.listId ?? null,
        send.ignoreUnsubscribes,
        send.shortenUrls ?? false,
        send.customRef ?? null,
        send.scheduledFor ? send.scheduledFor.toISOString() : null,
        send.staggerMinutes ?? null,
        send.messageCount,
        send.totalCost,
        send.requestId ?? null,
        send.userId ?? null,
        send.formKey ?? null,
        send.blockedCount ?? 0,
      ],
    );
    return rows[0] ? Number(rows[0].id) : null;
  }

  /** A send's counts, written once its messages are stored (a send whose messages were made while they were). */
  async setTotals(accountId: number, sendId: number, totals: SendTotals, tx: Tx): Promise<void> {
    await sql(tx, `UPDATE sends SET message_count = $3, total_cost = $4, blocked_count = $5 WHERE account_id = $1 AND id = $2`, [
      accountId,
      sendId,
      totals.messageCount,
      totals.totalCost,
      totals.blockedCount ?? 0,
    ]);
  }

  /** The send an account stored under a compose form's key, if any. */
  async findByFormKey(accountId: number, formKey: string, tx: Tx): Promise<number | null> {
    const { rows } = await sql<{ id: number }>(tx, `SELECT id FROM sends WHERE account_id = $1 AND form_key = $2`, [accountId, formKey]);
    return rows[0] ? Number(rows[0].id) : null;
  }
}
