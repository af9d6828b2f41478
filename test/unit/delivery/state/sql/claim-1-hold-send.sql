SELECT claimed_through_at::text AS at, claimed_through_seq::text AS seq FROM sends WHERE id = $1 FOR NO KEY UPDATE;
