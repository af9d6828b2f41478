WITH matched AS (
    UPDATE delivery_receipts r SET applied_at = now()
     WHERE r.received_at < now() - interval '1 second' AND r.applied_at IS NULL
       AND EXISTS (SELECT 1 FROM message_parts p WHERE p.carrier_id = r.carrier_id AND p.smsc_id = r.smsc_id)
    RETURNING r.carrier_id, r.smsc_id, r.state, r.stat, r.err, r.done_at
  )
  UPDATE message_parts p SET status = matched.state, receipt_at = matched.done_at, receipt_stat = matched.stat, receipt_err = matched.err
    FROM matched WHERE p.carrier_id = matched.carrier_id AND p.smsc_id = matched.smsc_id AND p.status IN ('submitted', 'unconfirmed')
  RETURNING p.account_id AS "accountId", p.message_id AS "messageId", p.part_number AS "partNumber", p.total_parts AS "totalParts", p.status,
  (extract(epoch FROM p.receipt_at) * 1000)::float8 AS "atMs", extract(epoch FROM now() - p.submitted_at)::float8 AS "lagSeconds";
