import { Injectable } from '@nestjs/common';
import { sql } from '../database/sql';
import { Tx } from '../database/unit-of-work';

@Injectable()
export class AutoRepliesRepository {
  /**
   * The auto-replies (sends of kind `reply`) an account sent from one number to one mobile since a
   * moment: how many, and whether one said exactly `text`. Read through the conversation index.
   */
  async recent(accountId: number, sender: string, mobile: string, since: Date, text: string, tx: Tx): Promise<{ count: number; echoes: boolean }> {
    const { rows } = await sql<{ count: number; echoes: boolean }>(
      tx,
      `SELECT count(*)::int AS count, coalesce(bool_or(m.body = $5), false) AS echoes
         FROM messages m JOIN sends s ON s.account_id = m.account_id AND s.id = m.send_id
        WHERE m.sender = $2 AND m.to_number = $3 AND m.created_at >= $4 AND m.account_id = $1 AND s.kind = 'reply'`,
      [accountId, sender, mobile, since.toISOString(), text],
    );
    return rows[0];
  }
}
