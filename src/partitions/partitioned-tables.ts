import type { Bucket, PartitionKey } from '../database/partitioning/partition-bounds';

/** The settings that say how long a partitioned table keeps its rows, in its bucket's unit (months or days). */
export type RetentionSetting = 'messageRetentionMonths' | 'webhookRetentionDays' | 'inboundRetentionMonths' | 'clickRetentionMonths';

/**
 * A table range-partitioned by time. The maintenance (partition-maintenance) keeps its buckets made
 * `ahead` of now and drops those wholly older than the retention setting. A table is listed once its
 * migration has converted it; the list names tables as text, so it imports no domain.
 */
export interface PartitionedTable {
  table: string;
  key: PartitionKey;
  bucket: Bucket;
  /** Buckets made beyond the current one: how long inserts keep working if the maintenance stops. */
  ahead: number;
  retention: RetentionSetting;
  /** Storage parameters of each new partition (a partitioned parent has none to copy), e.g. `fillfactor = 50`. */
  storage?: string;
  /** A statement run with each drop, in its transaction (`$1`: the bucket's start), for what triggers would have kept. */
  onDrop?: string;
}

/** Buckets ahead: three months, or two weeks of days, of slack before inserts would find no partition. */
export const MONTHS_AHEAD = 3;
export const DAYS_AHEAD = 14;

export const PARTITIONED_TABLES: readonly PartitionedTable[] = [
  { table: 'inbound_messages', key: { column: 'received_at', kind: 'timestamptz' }, bucket: 'month', ahead: MONTHS_AHEAD, retention: 'inboundRetentionMonths' },
  // Months of the v7 message id; a part lives in its message's month, so both drop together. Their DEFAULT
  // partition (_p_legacy) holds version 4 ids from before ids were v7: detaches there are plain, not CONCURRENTLY.
  {
    table: 'messages',
    key: { column: 'id', kind: 'uuid7' },
    bucket: 'month',
    ahead: MONTHS_AHEAD,
    retention: 'messageRetentionMonths',
    // A drop bypasses the triggers that keep the per-account counts (message_counts): the month's go with it.
    onDrop: `DELETE FROM message_counts WHERE month = $1::timestamptz AT TIME ZONE 'UTC'`,
  },
  {
    table: 'message_parts',
    key: { column: 'message_id', kind: 'uuid7' },
    bucket: 'month',
    ahead: MONTHS_AHEAD,
    retention: 'messageRetentionMonths',
    // Half-filled pages: a receipt's update of its part finds room on the part's page (stays HOT).
    storage: 'fillfactor = 50',
  },
  // Days of the day-prefixed event id; an attempt lives in its event's day, so both drop together.
  {
    table: 'webhook_events',
    key: { column: 'id', kind: 'dayPrefixedId' },
    bucket: 'day',
    ahead: DAYS_AHEAD,
    retention: 'webhookRetentionDays',
    // Half-filled pages: a claim's lease of an event finds room on the event's page (stays HOT).
    storage: 'fillfactor = 50',
  },
  { table: 'webhook_attempts', key: { column: 'event_id', kind: 'dayPrefixedId' }, bucket: 'day', ahead: DAYS_AHEAD, retention: 'webhookRetentionDays' },
  { table: 'link_click_buckets', key: { column: 'bucket', kind: 'timestamptz' }, bucket: 'month', ahead: MONTHS_AHEAD, retention: 'clickRetentionMonths' },
];
