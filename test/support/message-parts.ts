import type { DataSource } from 'typeorm';

export interface StoredPart {
  message_id: string;
  part_number: number;
  total_parts: number;
  smsc_id: string | null;
  status: string;
  error: string | null;
}

/**
 * Message parts as stored: a multi-part message's rows of message_parts, and a single-part message's own
 * row (it is its own part; its status reads `submitted` until a receipt settles it, as a part's does).
 */
export function storedParts(db: DataSource, messageIds: string[]): Promise<StoredPart[]> {
  return db.query(
    `SELECT message_id, part_number, total_parts, smsc_id, status, error FROM message_parts WHERE message_id = ANY($1::uuid[])
     UNION ALL
     SELECT id, 1, 1, smsc_id, CASE status WHEN 'sent' THEN 'submitted' ELSE status END, error FROM messages
      WHERE id = ANY($1::uuid[]) AND (smsc_id IS NOT NULL OR error IS NOT NULL)
     ORDER BY message_id, part_number`,
    [messageIds],
  );
}
