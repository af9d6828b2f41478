SELECT "sendId", min(due) AS due FROM (
    SELECT s.id AS "sendId", n.dispatch_at AS due FROM sends s CROSS JOIN LATERAL (
  SELECT m.dispatch_at FROM messages m WHERE m.send_id = s.id AND (m.dispatch_at, m.seq) > (s.claimed_through_at, s.claimed_through_seq) ORDER BY m.dispatch_at, m.seq LIMIT 1) n
     WHERE s.last_seq IS NOT NULL AND (s.claimed_through_at, s.claimed_through_seq) < (s.last_at, s.last_seq) AND n.dispatch_at <= now() - $1 * interval '1 millisecond'
    UNION ALL
    SELECT b.send_id, b.after_at FROM dispatch_batches b WHERE b.released_at IS NOT NULL AND b.released_at <= now() - $1 * interval '1 millisecond'
  ) due GROUP BY "sendId" ORDER BY due LIMIT $2;
