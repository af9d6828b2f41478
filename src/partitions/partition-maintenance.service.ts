import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/time/clock';
import { AppConfig } from '../config/app-config';
import { parsePartitionName, planMaintenance } from '../database/partitioning/partition-bounds';
import { type DropFollowUp, MaintenanceSession, PartitionMaintenanceRepository } from './partition-maintenance.repository';
import type { PartitionedTable } from './partitioned-tables';

/** Injection token of the tables the maintenance looks after (PARTITIONED_TABLES; tests pass their own). */
export const PARTITIONED_TABLE_LIST = Symbol('PARTITIONED_TABLE_LIST');

export interface MaintenanceReport {
  /** False when another worker was running it. */
  ran: boolean;
  created: string[];
  dropped: string[];
  /** Steps that failed this run (a lock not granted within the timeout); they are tried again next run. */
  failed: string[];
}

/**
 * Keeps each partitioned table's buckets: makes those from the current one to `ahead` after it, and
 * detaches and drops those wholly older than the table's retention, logging each drop. One worker at a
 * time runs it (advisory lock); a failed step does not stop the others and is tried again next run.
 */
@Injectable()
export class PartitionMaintenanceService {
  private readonly logger = new Logger(PartitionMaintenanceService.name);

  constructor(
    private readonly repo: PartitionMaintenanceRepository,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    @Inject(PARTITIONED_TABLE_LIST) private readonly tables: readonly PartitionedTable[],
  ) {}

  async run(): Promise<MaintenanceReport> {
    const report: MaintenanceReport = { ran: false, created: [], dropped: [], failed: [] };
    const done = await this.repo.withLock(async (session) => {
      for (const table of this.tables) await this.maintain(session, table, report);
      return true;
    });
    report.ran = done === true;
    return report;
  }

  private async maintain(session: MaintenanceSession, spec: PartitionedTable, report: MaintenanceReport): Promise<void> {
    if (!(await session.isPartitioned(spec.table))) {
      report.failed.push(spec.table);
      this.logger.warn({ msg: 'listed as partitioned but is not; skipped', table: spec.table });
      return;
    }
    const partitions = await session.partitions(spec.table);
    const step = async (name: string, what: () => Promise<void>): Promise<boolean> => {
      try {
        await what();
        return true;
      } catch (err) {
        report.failed.push(name);
        this.logger.warn({ msg: 'partition maintenance step failed; it is tried again next run', table: spec.table, partition: name, err: (err as Error).message });
        return false;
      }
    };
    const followUp = (name: string): DropFollowUp | undefined => {
      const bucketStart = parsePartitionName(spec.table, spec.bucket, name);
      return spec.onDrop && bucketStart ? { sql: spec.onDrop, bucketStart } : undefined;
    };
    for (const pending of partitions.filter((p) => p.detachPending)) {
      if (await step(pending.name, () => session.finalizeAndDrop(spec.table, pending.name, followUp(pending.name))))
        this.dropped(spec.table, pending.name, pending.approximateRows, report);
    }
    const live = partitions.filter((p) => !p.detachPending);
    const plan = planMaintenance(
      { table: spec.table, bucket: spec.bucket, ahead: spec.ahead, retention: this.config[spec.retention] },
      this.clock.now(),
      live.map((p) => p.name),
    );
    const defaultPartition = live.find((p) => p.isDefault)?.name;
    for (const range of plan.create) {
      if (await step(range.name, () => session.createPartition(spec.table, spec.key, range, spec.storage, defaultPartition))) {
        report.created.push(range.name);
        this.logger.log({ msg: 'partition created', table: spec.table, partition: range.name, from: range.start.toISOString(), to: range.end.toISOString() });
      }
    }
    // DETACH CONCURRENTLY is refused beside a DEFAULT partition: then a plain, lock_timeout-bounded DETACH.
    const concurrently = !live.some((p) => p.isDefault);
    for (const range of plan.drop) {
      const rows = live.find((p) => p.name === range.name)?.approximateRows ?? 0;
      if (await step(range.name, () => session.detachAndDrop(spec.table, range.name, concurrently, followUp(range.name)))) {
        this.dropped(spec.table, range.name, rows, report, range.start, range.end);
      }
    }
  }

  private dropped(table: string, partition: string, rows: number, report: MaintenanceReport, from?: Date, to?: Date): void {
    report.dropped.push(partition);
    this.logger.log({ msg: 'partition dropped', table, partition, from: from?.toISOString(), to: to?.toISOString(), approximate_rows: rows });
  }
}
