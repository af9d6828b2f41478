UPDATE dispatch_batches SET batch_id = $2, claimed_at = now(), released_at = NULL
  WHERE batch_id = (SELECT batch_id FROM dispatch_batches WHERE send_id = $1 AND released_at IS NOT NULL ORDER BY after_at, after_seq LIMIT 1 FOR UPDATE SKIP LOCKED);
