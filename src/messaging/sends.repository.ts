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
  /** The request that created it (X-Request-Id), for tracing. */
  requestId?: string | null;
}

@Injectable()
export class SendsRepository {
  async insert(send: NewSend, tx: Tx): Promise<number> {
    const { rows } = await sql<{ id: number }>(
      tx,
      `INSERT INTO sends (account_id, api_key_id, kind, list_id, ignore_unsubscribes, shorten_urls, custom_ref, scheduled_for, stagger_minutes, message_count, total_cost, request_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
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
      ],
    );
    return rows[0].id;
  }
}
