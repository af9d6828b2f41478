UPDATE messages m SET status = 'cancelled', updated_at = now()
    FROM sends s
   WHERE m.id = ANY($1::uuid[]) AND s.id = m.send_id AND m.status IN ('pending', 'scheduled')
     AND ((m.dispatch_at, m.seq) > (s.claimed_through_at, s.claimed_through_seq) OR (EXISTS (SELECT 1 FROM dispatch_batches rb WHERE rb.released_at IS NOT NULL AND m.send_id = rb.send_id AND (m.dispatch_at, m.seq) > (rb.after_at, rb.after_seq) AND (m.dispatch_at, m.seq) <= (rb.through_at, rb.through_seq)) AND NOT EXISTS (SELECT 1 FROM message_parts p WHERE p.message_id = m.id)))
   RETURNING m.id, m.cost, m.parts, m.to_number AS "to", m.sender, m.body, m.custom_ref AS "customRef";
