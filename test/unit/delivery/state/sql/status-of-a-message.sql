SELECT coalesce(part_status.status,
  CASE WHEN m.status IN ('pending', 'scheduled') AND NOT (m.dispatch_at, m.seq) > (message_send.claimed_through_at, message_send.claimed_through_seq) AND NOT EXISTS (SELECT 1 FROM dispatch_batches rb WHERE rb.released_at IS NOT NULL AND m.send_id = rb.send_id AND (m.dispatch_at, m.seq) > (rb.after_at, rb.after_seq) AND (m.dispatch_at, m.seq) <= (rb.through_at, rb.through_seq)) THEN 'sent'
       ELSE m.status END) AS status FROM messages m LEFT JOIN sends message_send ON message_send.id = m.send_id
  LEFT JOIN LATERAL (
    SELECT CASE WHEN bool_or(p.status = 'failed') THEN 'failed'
         WHEN count(*) = max(p.total_parts) AND bool_and(p.status IN ('delivered', 'unconfirmed')) AND bool_or(p.part_number = 1 AND p.status = 'delivered') THEN 'delivered'
         ELSE 'sent' END AS status
      FROM message_parts p WHERE p.message_id = m.id HAVING count(*) > 0
  ) part_status ON true WHERE m.account_id = $1 AND m.id = $2;
