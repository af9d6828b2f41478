WITH input AS (
    SELECT carrier_id, smsc_id, state, stat, err, to_timestamp(done_ms / 1000.0) AS done_at, to_timestamp(received_ms / 1000.0) AS received_at
      FROM unnest($7::smallint[], $1::text[], $2::text[], $3::text[], $4::text[], $5::float8[], $6::float8[]) AS t(carrier_id, smsc_id, state, stat, err, done_ms, received_ms)
  ), recent AS (
    UPDATE message_parts p SET status = i.state, receipt_at = i.done_at, receipt_stat = i.stat, receipt_err = i.err
      FROM input i WHERE p.message_id >= $8::uuid AND p.message_id < $9::uuid
                     AND p.carrier_id = i.carrier_id AND p.smsc_id = i.smsc_id AND p.status IN ('submitted', 'unconfirmed')
    RETURNING p.carrier_id, p.smsc_id, p.account_id AS "accountId", p.message_id AS "messageId", p.part_number AS "partNumber", p.total_parts AS "totalParts", p.status,
  (extract(epoch FROM p.receipt_at) * 1000)::float8 AS "atMs", extract(epoch FROM now() - p.submitted_at)::float8 AS "lagSeconds"
  ), rest AS MATERIALIZED (
    SELECT * FROM input i WHERE (i.carrier_id, i.smsc_id) NOT IN (SELECT carrier_id, smsc_id FROM recent)
  ), older AS (
    UPDATE message_parts p SET status = i.state, receipt_at = i.done_at, receipt_stat = i.stat, receipt_err = i.err
      FROM rest i WHERE p.carrier_id = i.carrier_id AND p.smsc_id = i.smsc_id AND p.status IN ('submitted', 'unconfirmed')
    RETURNING p.account_id AS "accountId", p.message_id AS "messageId", p.part_number AS "partNumber", p.total_parts AS "totalParts", p.status,
  (extract(epoch FROM p.receipt_at) * 1000)::float8 AS "atMs", extract(epoch FROM now() - p.submitted_at)::float8 AS "lagSeconds"
  ), early AS (
    INSERT INTO delivery_receipts (carrier_id, smsc_id, state, stat, err, done_at, received_at)
    SELECT carrier_id, smsc_id, state, stat, err, done_at, received_at FROM rest i
     WHERE NOT EXISTS (SELECT 1 FROM message_parts p WHERE p.carrier_id = i.carrier_id AND p.smsc_id = i.smsc_id)
    ON CONFLICT (carrier_id, smsc_id) DO NOTHING
  )
  SELECT "accountId", "messageId", "partNumber", "totalParts", status, "atMs", "lagSeconds" FROM recent
  UNION ALL
  SELECT * FROM older;
