import { MigrationInterface, QueryRunner } from 'typeorm';
import { convertToPartitioned } from '../partitioning/convert-to-partitioned';

/**
 * Inbound messages and link clicks by quarter hour become range-partitioned by month, so their retention
 * (INBOUND_RETENTION_MONTHS, CLICK_RETENTION_MONTHS) drops whole months (src/partitions) instead of deleting
 * rows. Converted in place, batch by batch, while the service runs (convertToPartitioned), hence no
 * transaction around the migration.
 * - inbound_messages by received_at (set from the clock when the reply arrives). A primary key of a
 *   partitioned table must include its key, so it is (id, received_at): ids are random and never supplied
 *   by a client, so id stays unique in practice; no foreign key points at this table. Lookups are by
 *   account (the account's index, now per partition) and by id only from a consent record (one probe per
 *   partition). seq keeps its identity and its next value.
 * - link_click_buckets by bucket: its primary key (account_id, bucket, send_id) already includes it, so the
 *   fold's ON CONFLICT keeps its meaning.
 * link_click_events is not partitioned: the fold deletes each row within seconds, so it never grows.
 */
export class PartitionInboundAndClicks1763706400000 implements MigrationInterface {
  name = 'PartitionInboundAndClicks1763706400000';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await convertToPartitioned(q, {
      table: 'inbound_messages',
      key: { column: 'received_at', kind: 'timestamptz' },
      bucket: 'month',
      ahead: 3,
      walk: [{ column: 'id', type: 'uuid' }],
      primaryKey: ['id', 'received_at'],
      identity: 'seq',
      build: [
        `CREATE INDEX inbound_messages_account_idx ON {t} (account_id, received_at DESC, seq DESC)`,
        `CREATE INDEX inbound_messages_account_from_idx ON {t} (account_id, from_number, seq)`,
        `ALTER TABLE {t} ADD CONSTRAINT inbound_messages_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id) ON DELETE CASCADE`,
      ],
    });
    await convertToPartitioned(q, {
      table: 'link_click_buckets',
      key: { column: 'bucket', kind: 'timestamptz' },
      bucket: 'month',
      ahead: 3,
      walk: [
        { column: 'account_id', type: 'integer' },
        { column: 'bucket', type: 'timestamptz' },
        { column: 'send_id', type: 'bigint' },
      ],
      primaryKey: ['account_id', 'bucket', 'send_id'],
      build: [],
    });
  }

  async down(): Promise<void> {
    throw new Error('PartitionInboundAndClicks cannot be undone: restore a backup taken before it');
  }
}
