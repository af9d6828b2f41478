WITH walked AS (
    SELECT m.seq, m.dispatch_at, m.status, m.id, m.account_id AS "accountId", m.to_number AS "to", m.sender, m.body, m.encoding, m.parts, m.is_test AS "isTest" FROM messages m
     WHERE m.send_id = $1 AND (m.dispatch_at, m.seq) > ($4::timestamptz, $5::bigint) AND m.dispatch_at <= now()
     ORDER BY m.dispatch_at, m.seq LIMIT $2
  ), last AS (
    SELECT dispatch_at, seq FROM walked ORDER BY dispatch_at DESC, seq DESC LIMIT 1
  ), moved AS (
    UPDATE sends SET claimed_through_at = last.dispatch_at, claimed_through_seq = last.seq FROM last WHERE sends.id = $1
  ), batch AS (
    INSERT INTO dispatch_batches (batch_id, send_id, after_at, after_seq, through_at, through_seq)
    SELECT $3::uuid, $1, $4::timestamptz, $5::bigint, last.dispatch_at, last.seq FROM last
     WHERE EXISTS (SELECT 1 FROM walked m WHERE m.status IN ('pending', 'scheduled'))
  )
  SELECT id, "accountId", "to", sender, body, encoding, parts, "isTest", status FROM walked ORDER BY dispatch_at, seq;
