WITH stale AS (
    SELECT b.batch_id, b.send_id, EXISTS (SELECT 1 FROM messages m WHERE m.send_id = b.send_id AND (m.dispatch_at, m.seq) > (b.after_at, b.after_seq) AND (m.dispatch_at, m.seq) <= (b.through_at, b.through_seq) AND m.status IN ('pending', 'scheduled') AND NOT EXISTS (SELECT 1 FROM message_parts p WHERE p.message_id = m.id)) AS waiting
      FROM dispatch_batches b WHERE b.batch_id = ANY($1::uuid[])
  ), released AS (
    UPDATE dispatch_batches d SET released_at = now() FROM stale WHERE d.batch_id = stale.batch_id AND stale.waiting RETURNING d.send_id
  ), forgotten AS (
    DELETE FROM dispatch_batches d USING stale WHERE d.batch_id = stale.batch_id AND NOT stale.waiting
  )
  SELECT DISTINCT send_id FROM released;
