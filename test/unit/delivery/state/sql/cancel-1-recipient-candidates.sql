SELECT m.id, m.send_id FROM sends s JOIN messages m ON m.send_id = s.id AND (m.dispatch_at, m.seq) > (s.claimed_through_at, s.claimed_through_seq) WHERE s.account_id = $1 AND s.last_seq IS NOT NULL AND (s.claimed_through_at, s.claimed_through_seq) < (s.last_at, s.last_seq) AND m.to_number = $2 AND m.status IN ('pending', 'scheduled')
  UNION
  SELECT m.id, m.send_id FROM dispatch_batches b JOIN sends s ON s.id = b.send_id AND s.account_id = $1 JOIN messages m ON m.send_id = b.send_id AND (m.dispatch_at, m.seq) > (b.after_at, b.after_seq) AND (m.dispatch_at, m.seq) <= (b.through_at, b.through_seq)
   WHERE b.released_at IS NOT NULL AND m.to_number = $2 AND m.status IN ('pending', 'scheduled') AND NOT EXISTS (SELECT 1 FROM message_parts p WHERE p.message_id = m.id);
