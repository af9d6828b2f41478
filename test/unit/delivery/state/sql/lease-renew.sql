INSERT INTO dispatcher_leases (dispatcher_id, active_batches) VALUES ($1, $2::uuid[])
  ON CONFLICT (dispatcher_id) DO UPDATE SET active_batches = EXCLUDED.active_batches, heartbeat_at = now();
