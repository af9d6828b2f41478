import { Injectable } from '@nestjs/common';
import { Tx } from '../database/unit-of-work';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../database/sql';

export interface StoredResponse {
  fingerprint: Buffer;
  status: number;
  contentType: string;
  body: string;
}

@Injectable()
export class IdempotencyRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async findLive(apiKeyId: number, key: string): Promise<StoredResponse | null> {
    const { rows } = await sql<{ fingerprint: Buffer; response_status: number; response_content_type: string; response_body: string }>(
      this.dataSource,
      `SELECT fingerprint, response_status, response_content_type, response_body FROM idempotency_keys
        WHERE api_key_id = $1 AND key = $2 AND expires_at > now()`,
      [apiKeyId, key],
    );
    const row = rows[0];
    return row ? { fingerprint: row.fingerprint, status: row.response_status, contentType: row.response_content_type, body: row.response_body } : null;
  }

  /**
   * Takes the key inside the caller's transaction. A concurrent transaction holding the same key makes
   * this wait until it commits (then false: replay its response) or rolls back (then true). An expired
   * record is taken over.
   */
  async claim(apiKeyId: number, key: string, fingerprint: Buffer, ttlMs: number, tx: Tx): Promise<boolean> {
    const { rows } = await sql(
      tx,
      `INSERT INTO idempotency_keys (api_key_id, key, fingerprint, response_status, response_content_type, response_body, expires_at)
       VALUES ($1, $2, $3, 0, '', '', now() + $4 * interval '1 millisecond')
       ON CONFLICT (api_key_id, key) DO UPDATE
         SET fingerprint = EXCLUDED.fingerprint, response_status = 0, response_content_type = '', response_body = '',
             created_at = now(), expires_at = EXCLUDED.expires_at
         WHERE idempotency_keys.expires_at <= now()
       RETURNING 1`,
      [apiKeyId, key, fingerprint, ttlMs],
    );
    return rows.length > 0;
  }

  async complete(apiKeyId: number, key: string, status: number, contentType: string, body: string, tx: Tx): Promise<void> {
    await sql(tx, `UPDATE idempotency_keys SET response_status = $3, response_content_type = $4, response_body = $5 WHERE api_key_id = $1 AND key = $2`, [
      apiKeyId,
      key,
      status,
      contentType,
      body,
    ]);
  }

  async purgeExpired(batch: number): Promise<number> {
    const { rowCount } = await sql(this.dataSource, `DELETE FROM idempotency_keys WHERE ctid IN (SELECT ctid FROM idempotency_keys WHERE expires_at <= now() LIMIT $1)`, [batch]);
    return rowCount;
  }
}
