/**
 * A message's status, in SQL, for a message row `m` joined `WITH_PART_STATUS`: its row's until one of its
 * parts is recorded (pending, scheduled, cancelled: the only statuses written on the row), then its
 * parts' (a part is written when the carrier answers its submission, and again by its receipt): failed
 * when any part failed, delivered once every part is, else sent. The parts are read by key.
 */
export const WITH_PART_STATUS = `LEFT JOIN LATERAL (
    SELECT CASE WHEN bool_or(p.status = 'failed') THEN 'failed'
                WHEN count(*) = max(p.total_parts) AND bool_and(p.status = 'delivered') THEN 'delivered'
                ELSE 'sent' END AS status
      FROM message_parts p WHERE p.message_id = m.id HAVING count(*) > 0
  ) part_status ON true`;

export const MESSAGE_STATUS = `coalesce(part_status.status, m.status)`;
