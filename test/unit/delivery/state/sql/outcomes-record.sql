WITH held AS (
     SELECT 1 FROM dispatch_batches WHERE batch_id = ANY($8::uuid[]) FOR SHARE
   ), input AS (
     SELECT * FROM unnest($1::uuid[], $2::smallint[], $3::int[], $4::smallint[], $5::text[], $6::text[], $7::timestamptz[], $9::smallint[], $10::int[])
       AS t(message_id, part_number, account_id, total_parts, smsc_id, error, receipt_due_at, carrier_id, error_code)
   ), early AS (
     UPDATE delivery_receipts r SET applied_at = now() FROM input i
      WHERE r.carrier_id = i.carrier_id AND r.smsc_id = i.smsc_id AND r.applied_at IS NULL AND (SELECT count(*) FROM held) >= 0
     RETURNING r.carrier_id, r.smsc_id, r.state, r.stat, r.err, r.done_at
   ), parts AS (
     INSERT INTO message_parts AS p (message_id, part_number, account_id, total_parts, carrier_id, smsc_id, status, error, error_code, receipt_due_at, receipt_at, receipt_stat, receipt_err)
     SELECT i.message_id, i.part_number, i.account_id, i.total_parts, i.carrier_id, i.smsc_id, CASE WHEN i.smsc_id IS NULL THEN 'failed' ELSE coalesce(e.state, 'submitted') END,
            i.error, i.error_code, CASE WHEN e.smsc_id IS NULL THEN i.receipt_due_at END, e.done_at, e.stat, e.err
       FROM input i LEFT JOIN early e ON e.carrier_id = i.carrier_id AND e.smsc_id = i.smsc_id
      WHERE (SELECT count(*) FROM held) >= 0
     ON CONFLICT (message_id, part_number) DO UPDATE
       SET carrier_id = EXCLUDED.carrier_id, smsc_id = EXCLUDED.smsc_id, status = EXCLUDED.status, error = EXCLUDED.error, error_code = EXCLUDED.error_code, submitted_at = now(), receipt_due_at = EXCLUDED.receipt_due_at,
           receipt_at = EXCLUDED.receipt_at, receipt_stat = EXCLUDED.receipt_stat, receipt_err = EXCLUDED.receipt_err
       WHERE (p.carrier_id, p.smsc_id) IS DISTINCT FROM (EXCLUDED.carrier_id, EXCLUDED.smsc_id)
     RETURNING p.account_id, p.message_id, p.part_number, p.total_parts, p.status, p.error_code, p.submitted_at, coalesce(p.receipt_at, now()) AS receipt_at
   )
   SELECT p.account_id AS "accountId", p.message_id AS "messageId", p.part_number AS "partNumber", p.total_parts AS "totalParts", p.status,
  (extract(epoch FROM p.receipt_at) * 1000)::float8 AS "atMs", extract(epoch FROM now() - p.submitted_at)::float8 AS "lagSeconds", p.error_code AS "errorCode" FROM parts p WHERE p.status <> 'submitted';
