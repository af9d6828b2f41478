WITH due AS MATERIALIZED (
    SELECT message_id, part_number FROM message_parts
     WHERE status = 'submitted' AND receipt_due_at <= now()
     ORDER BY receipt_due_at LIMIT $2 FOR UPDATE SKIP LOCKED
  )
  UPDATE message_parts p SET status = CASE WHEN right(msg.to_number, length($1)) = $1 THEN 'failed' ELSE 'delivered' END, receipt_at = now(), receipt_due_at = NULL
    FROM due, messages msg
   WHERE p.message_id = due.message_id AND p.part_number = due.part_number AND msg.id = p.message_id
  RETURNING p.account_id AS "accountId", p.message_id AS "messageId", p.part_number AS "partNumber", p.total_parts AS "totalParts", p.status,
  (extract(epoch FROM p.receipt_at) * 1000)::float8 AS "atMs", extract(epoch FROM now() - p.submitted_at)::float8 AS "lagSeconds";
