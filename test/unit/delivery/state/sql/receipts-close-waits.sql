WITH mark AS (
    SELECT closed_through FROM receipt_wait_watermark WHERE id = 1 FOR UPDATE SKIP LOCKED
  ), due AS MATERIALIZED (
    SELECT mark.closed_through AS since, now() - $1 * interval '1 millisecond' AS until,
           (SELECT p.submitted_at FROM message_parts p
             WHERE p.carrier_id >= 0 AND p.submitted_at > mark.closed_through
             ORDER BY p.submitted_at OFFSET $2 - 1 LIMIT 1) AS nth
      FROM mark
  ), step AS (
    SELECT since, CASE WHEN nth IS NOT NULL AND nth < until THEN nth ELSE until END AS through, nth IS NOT NULL AND nth < until AS more FROM due
  ), closed AS (
    UPDATE message_parts p SET status = 'unconfirmed' FROM step
     WHERE p.carrier_id >= 0 AND p.submitted_at > step.since - interval '5 seconds' AND p.submitted_at <= step.through AND p.status = 'submitted'
    RETURNING p.carrier_id
  ), moved AS (
    UPDATE receipt_wait_watermark w SET closed_through = step.through FROM step WHERE w.id = 1 AND step.through > step.since
  )
  SELECT (SELECT coalesce(json_object_agg(carrier_id, parts), '{}') FROM (SELECT carrier_id, count(*)::int AS parts FROM closed GROUP BY carrier_id) c) AS "closedByCarrier",
         coalesce((SELECT more FROM step), false) AS more;
