SELECT (extract(epoch FROM now() - min(due)) * 1000)::bigint AS age FROM (
    SELECT n.dispatch_at AS due FROM sends s CROSS JOIN LATERAL (
  SELECT m.dispatch_at FROM messages m WHERE m.send_id = s.id AND (m.dispatch_at, m.seq) > (s.claimed_through_at, s.claimed_through_seq) ORDER BY m.dispatch_at, m.seq LIMIT 1) n WHERE s.last_seq IS NOT NULL AND (s.claimed_through_at, s.claimed_through_seq) < (s.last_at, s.last_seq) AND n.dispatch_at <= now()
    UNION ALL
    SELECT released_at FROM dispatch_batches WHERE released_at IS NOT NULL
  ) due;
