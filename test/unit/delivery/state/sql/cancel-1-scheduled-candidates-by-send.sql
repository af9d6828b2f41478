SELECT m.id, m.send_id FROM messages m JOIN sends s ON s.id = m.send_id AND s.last_seq IS NOT NULL AND (s.claimed_through_at, s.claimed_through_seq) < (s.last_at, s.last_seq) WHERE m.account_id = $1 AND m.send_id = $2 AND m.status = 'scheduled' AND (m.dispatch_at, m.seq) > (s.claimed_through_at, s.claimed_through_seq)
  UNION
  SELECT m.id, m.send_id FROM messages m JOIN dispatch_batches b ON b.send_id = m.send_id AND b.released_at IS NOT NULL AND m.send_id = b.send_id AND (m.dispatch_at, m.seq) > (b.after_at, b.after_seq) AND (m.dispatch_at, m.seq) <= (b.through_at, b.through_seq)
   WHERE m.account_id = $1 AND m.send_id = $2 AND m.status = 'scheduled' AND NOT EXISTS (SELECT 1 FROM message_parts p WHERE p.message_id = m.id);
