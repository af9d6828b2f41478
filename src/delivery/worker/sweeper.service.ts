import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { RepeatedLines } from '../../common/logging/repeated-lines';
import { DispatchStatusService } from '../status/dispatch-status.service';
import { DispatchQueue } from '../../queues/dispatch-queue';
import { DeliveryRecordsService } from './delivery-records.service';
import { LeasesRepository } from '../state/leases.repository';
import { SweepRepository } from '../state/sweep.repository';

const ORPHANED_SENDS_PER_SWEEP = 1000;

/**
 * The safety net behind the queue, driven by PostgreSQL: re-enqueues sends with due messages that no
 * job took (a crash between commit and enqueue, a flushed Redis), takes back claims of dead
 * dispatchers, applies receipts that arrived before their parts were recorded, and applies due
 * simulated receipts. Every step is idempotent, so any number of workers may sweep at once.
 */
@Injectable()
export class SweeperService {
  private readonly logger = new Logger(SweeperService.name);
  /** Every sweep during a long campaign or a Redis outage finds due messages again: once a second with a count. */
  private readonly repeated = new RepeatedLines((msg, meta) => this.logger.warn({ msg, ...meta }));

  constructor(
    private readonly sweeps: SweepRepository,
    private readonly leases: LeasesRepository,
    private readonly queue: DispatchQueue,
    private readonly records: DeliveryRecordsService,
    private readonly status: DispatchStatusService,
    private readonly config: AppConfig,
  ) {}

  async sweep(): Promise<void> {
    await this.leases.forgetDeadLeases();
    for (const sendId of await this.sweeps.releaseStaleClaims(this.config.claimTimeoutMs)) {
      this.logger.warn({ msg: 'took back stale dispatch claims', sendId });
      await this.queue.enqueueSend(sendId, new Date());
    }
    const orphans = await this.sweeps.sendsWithUnclaimedDue(this.config.sweepIntervalMs, ORPHANED_SENDS_PER_SWEEP);
    if (orphans.length) this.repeated.note('re-enqueueing due messages without a job', { sends: orphans.length });
    for (const { sendId, due } of orphans) await this.queue.enqueueSend(sendId, due);
    await this.records.applyLateReceipts();
    await this.applySimulatedReceipts();
    const oldestDueSeconds = await this.status.oldestDueSeconds();
    if (this.status.isStalled(oldestDueSeconds)) this.logger.warn({ msg: 'dispatch is not draining', oldestDueSeconds });
  }

  async applySimulatedReceipts(): Promise<void> {
    while ((await this.records.applyDueSimulatedReceipts()) > 0);
  }
}
