DELETE FROM dispatch_batches WHERE batch_id = $1;
