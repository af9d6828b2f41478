SELECT b.batch_id FROM dispatch_batches b
  WHERE b.released_at IS NULL AND b.claimed_at < now() - $1 * interval '1 millisecond' AND NOT EXISTS (
    SELECT 1 FROM dispatcher_leases l WHERE b.batch_id = ANY(l.active_batches) AND l.heartbeat_at >= now() - $1 * interval '1 millisecond')
  FOR UPDATE OF b SKIP LOCKED;
