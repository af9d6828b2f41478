import { Injectable } from '@nestjs/common';
import { DataSource, QueryRunner } from 'typeorm';
import { boundLiteral, forValues, type PartitionKey, type PartitionRange } from '../database/partitioning/partition-bounds';

/** One runner at a time across every worker: a session-level advisory lock held on the maintenance connection. */
const MAINTENANCE_LOCK = "hashtextextended('partition-maintenance', 0)";
/**
 * How long a maintenance statement waits for a lock before giving up until the next run. A statement waiting
 * for a lock queues ahead of later ones, so a short wait keeps the maintenance from ever stalling sends.
 */
export const MAINTENANCE_LOCK_TIMEOUT_MS = 200;

/** A statement run with a partition's drop, in its transaction: `$1` is the dropped bucket's start. */
export interface DropFollowUp {
  sql: string;
  bucketStart: Date;
}

export interface PartitionInfo {
  name: string;
  /** A DETACH CONCURRENTLY that did not finish (a crash or a timeout between its two transactions). */
  detachPending: boolean;
  isDefault: boolean;
  approximateRows: number;
}

/** A maintenance session: one connection, holding the advisory lock, with a short lock_timeout. */
export class MaintenanceSession {
  constructor(private readonly runner: QueryRunner) {}

  async partitions(table: string): Promise<PartitionInfo[]> {
    const rows: Array<{ name: string; detach_pending: boolean; is_default: boolean; rows: string }> = await this.runner.query(
      `SELECT c.relname AS name, i.inhdetachpending AS detach_pending,
              pg_get_expr(c.relpartbound, c.oid) = 'DEFAULT' AS is_default, greatest(c.reltuples, 0)::bigint AS rows
         FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = to_regclass($1) ORDER BY c.relname`,
      [`public.${table}`],
    );
    return rows.map((r) => ({ name: r.name, detachPending: r.detach_pending, isDefault: r.is_default, approximateRows: Number(r.rows) }));
  }

  /**
   * Makes a bucket partition: a table like the parent, then ATTACH, which takes SHARE UPDATE EXCLUSIVE on the
   * parent (CREATE TABLE .. PARTITION OF would take ACCESS EXCLUSIVE and stop inserts meanwhile); ATTACH
   * builds the parent's indexes and clones its foreign keys. Beside a DEFAULT partition (`defaultPartition`)
   * the rows of the new range that it holds (legacy version 4 ids, which fall anywhere) move into the new
   * table first, in the same transaction: ATTACH refuses a range the default still has rows of, and scans
   * the default (ACCESS EXCLUSIVE on it, not on the parent) to check.
   */
  async createPartition(table: string, key: PartitionKey, range: PartitionRange, storage?: string, defaultPartition?: string): Promise<void> {
    await this.runner.startTransaction();
    try {
      await this.runner.query(
        `CREATE TABLE IF NOT EXISTS ${range.name} (LIKE ${table} INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE)${storage ? ` WITH (${storage})` : ''}`,
      );
      if (defaultPartition) {
        await this.runner.query(
          `WITH moved AS (DELETE FROM ${defaultPartition} WHERE ${key.column} >= ${boundLiteral(key, range.start)} AND ${key.column} < ${boundLiteral(key, range.end)} RETURNING *)
           INSERT INTO ${range.name} SELECT * FROM moved`,
        );
      }
      await this.runner.query(`ALTER TABLE ${table} ATTACH PARTITION ${range.name} ${forValues(key, range.start, range.end)}`);
      await this.runner.commitTransaction();
    } catch (err) {
      // Nothing half-made stays behind (the rows moved go back with the rollback): the next run makes it again.
      await this.runner.rollbackTransaction().catch(() => undefined);
      throw err;
    }
  }

  /**
   * Detaches a partition and drops it. CONCURRENTLY (SHARE UPDATE EXCLUSIVE on the parent: inserts and
   * reads go on) runs outside a transaction and is refused beside a DEFAULT partition; then a plain DETACH
   * takes the parent's ACCESS EXCLUSIVE lock for an instant, bounded by lock_timeout.
   */
  async detachAndDrop(table: string, partition: string, concurrently: boolean, followUp?: DropFollowUp): Promise<void> {
    if (concurrently) {
      await this.runner.query(`ALTER TABLE ${table} DETACH PARTITION ${partition} CONCURRENTLY`);
      await this.dropWith(partition, followUp);
      return;
    }
    // A plain DETACH runs in the transaction of the drop and its follow-up: all or nothing.
    await this.inTransaction(async () => {
      await this.runner.query(`ALTER TABLE ${table} DETACH PARTITION ${partition}`);
      await this.dropWith(partition, followUp, false);
    });
  }

  /** Completes a DETACH CONCURRENTLY interrupted between its transactions, then drops the table. */
  async finalizeAndDrop(table: string, partition: string, followUp?: DropFollowUp): Promise<void> {
    await this.runner.query(`ALTER TABLE ${table} DETACH PARTITION ${partition} FINALIZE`);
    await this.dropWith(partition, followUp);
  }

  /** Drops a detached partition with its follow-up statement, together. */
  private async dropWith(partition: string, followUp?: DropFollowUp, ownTransaction = true): Promise<void> {
    const work = async () => {
      await this.runner.query(`DROP TABLE ${partition}`);
      if (followUp) await this.runner.query(followUp.sql, [followUp.bucketStart.toISOString()]);
    };
    await (ownTransaction && followUp ? this.inTransaction(work) : work());
  }

  private async inTransaction(work: () => Promise<void>): Promise<void> {
    await this.runner.startTransaction();
    try {
      await work();
      await this.runner.commitTransaction();
    } catch (err) {
      await this.runner.rollbackTransaction().catch(() => undefined);
      throw err;
    }
  }

  async isPartitioned(table: string): Promise<boolean> {
    const rows: Array<{ p: boolean }> = await this.runner.query(`SELECT relkind = 'p' AS p FROM pg_class WHERE oid = to_regclass($1)`, [`public.${table}`]);
    return rows[0]?.p === true;
  }
}

@Injectable()
export class PartitionMaintenanceRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Runs `work` holding the maintenance lock, or returns null at once when another runner holds it. */
  async withLock<T>(work: (session: MaintenanceSession) => Promise<T>): Promise<T | null> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      const [{ locked }]: Array<{ locked: boolean }> = await runner.query(`SELECT pg_try_advisory_lock(${MAINTENANCE_LOCK}) AS locked`);
      if (!locked) return null;
      try {
        await runner.query(`SET lock_timeout = ${MAINTENANCE_LOCK_TIMEOUT_MS}`);
        return await work(new MaintenanceSession(runner));
      } finally {
        await runner.query('RESET lock_timeout').catch(() => undefined);
        await runner.query(`SELECT pg_advisory_unlock(${MAINTENANCE_LOCK})`).catch(() => undefined);
      }
    } finally {
      await runner.release();
    }
  }
}
