import { randomUUID } from 'node:crypto';
import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { GroupCommit } from '../common/batching/group-commit';
import { Slots } from '../common/batching/slots';
import { runInLogContext } from '../common/logging/log-context';
import { Clock } from '../common/time/clock';
import { AppConfig } from '../config/app-config';
import type { SubmissionResult } from './carriers/carrier';
import { CarriersService } from './carriers.service';
import { DeliveryRecordsService } from './delivery-records.service';
import { LeaseFence } from './lease-fence';
import { ClaimedMessage, DispatchRepository } from './dispatch.repository';
import type { PartOutcome } from './part-changes';

/** Parts of a batch the carrier accepted and refused (for the `dispatched` log line). */
interface PartCounts {
  submitted: number;
  refused: number;
}

/** Lanes per job: while one lane claims, the other keeps the carrier busy. */
const LANES = 2;
/** Messages handed to the carrier together; their outcomes are recorded when the last is answered. */
const GROUP = 10;
/** Outcomes (of every lane of this process) are committed when this many have been answered, or this long after the first. */
const RECORD_EVERY = 200;
const RECORD_AFTER_MS = 10;

/**
 * Takes a send's due messages in batches (each claim moves the send's watermark and writes one batch row,
 * no message row), hands them to the carrier and records every part's outcome in one statement. This
 * process's lease (one row, renewed every quarter of the claim timeout) lists the batches it is working on, so the
 * sweeper only takes back the work of a dispatcher that died or a batch that ended unrecorded, never a
 * slow live one; and a dispatcher that cannot renew its lease stops handing batches over before the
 * sweeper may take them (LeaseFence).
 */
@Injectable()
export class DispatcherService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DispatcherService.name);
  private stopping = false;
  private readonly running = new Set<Promise<number>>();
  private readonly dispatcherId = randomUUID();
  private readonly activeBatches = new Set<string>();
  private leaseTimer?: NodeJS.Timeout;
  private renewing = false;
  /** Groups handed to a carrier and not yet recorded, across every lane of this process. */
  private readonly groupsOut: Slots;
  /** Set when a recording fails (PostgreSQL gone): no lane hands anything over until a claim succeeds again. */
  private recordingBroken = false;
  /** No batch is handed over once its claims could have been taken back (lease renewals failing). */
  private readonly fence: LeaseFence;
  /** One group commit for the whole process: the fewer the transactions, the less each outcome costs. */
  private readonly recorder: GroupCommit<PartOutcome>;

  constructor(
    private readonly repo: DispatchRepository,
    private readonly carriers: CarriersService,
    private readonly records: DeliveryRecordsService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.groupsOut = new Slots(Math.max(2, Math.ceil((2 * config.smppBinds * config.smppWindow) / GROUP)));
    this.fence = new LeaseFence(config.claimTimeoutMs);
    this.recorder = new GroupCommit<PartOutcome>((outcomes) => this.records.recordOutcomes(outcomes), { maxItems: RECORD_EVERY, maxWaitMs: RECORD_AFTER_MS });
  }

  /**
   * Runs in the log context of the request that created the send (its X-Request-Id and account, read
   * from the send row: the job may come from the sweeper, and the request's process may be gone), so
   * every line about these messages can be found by the id the client saw.
   */
  async dispatchSend(sendId: number): Promise<number> {
    const trace = await this.repo.sendTrace(sendId);
    const context = trace ? { reqId: trace.requestId ?? undefined, accountId: trace.accountId } : {};
    return runInLogContext(context, async () => {
      const lanes = Array.from({ length: LANES }, () => this.track(this.lane(sendId)));
      return (await Promise.all(lanes)).reduce((a, b) => a + b, 0);
    });
  }

  onApplicationBootstrap(): void {
    this.renewLease();
    this.leaseTimer = setInterval(() => this.renewLease(), Math.max(250, Math.floor(this.config.claimTimeoutMs / 4)));
    this.leaseTimer.unref();
  }

  /** On shutdown: claim nothing new, let the batches already out finish and be recorded, give up the lease. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.logger.log({ msg: 'dispatch stopping: no new claims; finishing the batches already out', lanes: this.running.size });
    await Promise.allSettled([...this.running]);
    clearInterval(this.leaseTimer);
    await this.repo.dropLease(this.dispatcherId).catch(() => undefined);
    this.logger.log({ msg: 'dispatch stopped' });
  }

  /**
   * One renewal at a time: two in flight on different connections could reach PostgreSQL out of order,
   * and the older one would list fewer batches under a fresh heartbeat. A renewal that hangs skips the
   * ticks meanwhile, and the fence stops the batches once that has lasted too long.
   */
  private renewLease(): void {
    if (this.renewing) return;
    this.renewing = true;
    const confirmed = this.fence.renewalSent();
    this.repo
      .renewLease(this.dispatcherId, [...this.activeBatches])
      .then(confirmed)
      .catch((err: Error) => this.logger.warn({ msg: 'dispatcher lease not renewed', err: err.message }))
      .finally(() => (this.renewing = false));
  }

  private track(work: Promise<number>): Promise<number> {
    this.running.add(work);
    return work.finally(() => this.running.delete(work));
  }

  private async lane(sendId: number): Promise<number> {
    let sent = 0;
    while (!this.stopping) {
      const batchId = randomUUID();
      // Listed before claiming: a claim is younger than the timeout until the next renewal lists it.
      this.activeBatches.add(batchId);
      const listedAt = this.fence.listed();
      try {
        const claim = await this.repo.claimDue(sendId, this.config.dispatchBatchSize, batchId);
        // A claim went through, so the database is back.
        this.recordingBroken = false;
        if (!claim.moved) break;
        const batch = claim.messages;
        // It walked past cancelled messages only: nothing to hand over, the rest of the send is next.
        if (batch.length === 0) continue;
        const parts = await this.deliver(batchId, batch, listedAt).catch((err: Error) => {
          // The job is retried and the sweeper takes the unrecorded claims back; say why this batch stopped.
          this.logger.warn({ msg: 'dispatch batch stopped', sendId, batchId, messages: batch.length, err: err.message });
          throw err;
        });
        // Every outcome is recorded (deliver throws otherwise): the sweeper has nothing to watch here.
        await this.repo.batchRecorded(batchId).catch((err: Error) => this.logger.warn({ msg: 'dispatch batch row not removed', err: err.message }));
        this.logger.log({ msg: 'dispatched', sendId, messages: batch.length, partsSubmitted: parts.submitted, partsRefused: parts.refused });
        sent += batch.length;
      } finally {
        this.activeBatches.delete(batchId);
      }
    }
    return sent;
  }

  /**
   * Hands a claimed batch to the carriers in small groups and records each group's outcome as soon as the
   * carrier answers it (group commit: one transaction per few milliseconds of answers). Across all lanes
   * of this process, at most twice the carrier window (binds × window) is handed over and not yet
   * recorded at any moment, and once a recording fails (PostgreSQL gone) no lane hands over anything
   * more, nor once the lease has gone unrenewed so long that the sweeper may take the batch back: a crash
   * or an outage can only repeat that much, never a batch.
   */
  private async deliver(batchId: string, batch: ClaimedMessage[], listedAt: number): Promise<PartCounts> {
    const parts: PartCounts = { submitted: 0, refused: 0 };
    const out = new Set<Promise<void>>();
    let failure: { error: unknown } | null = null;
    for (const group of groupsOf(batch, (m) => this.carriers.forMessage(m.isTest).simulated)) {
      await this.groupsOut.acquire();
      failure ??= this.reasonToStop(listedAt);
      if (failure) {
        this.groupsOut.release();
        break;
      }
      const handed: Promise<void> = this.deliverGroup(batchId, group, parts)
        .catch((error: unknown) => void (failure ??= { error }))
        .finally(() => {
          this.groupsOut.release();
          out.delete(handed);
        });
      out.add(handed);
    }
    // Every group handed over settles before the batch ends (and leaves the lease).
    await Promise.all(out);
    if (failure) throw (failure as { error: unknown }).error;
    return parts;
  }

  /** Why no more of a batch listed at `listedAt` may be handed over, or null while it may. */
  private reasonToStop(listedAt: number): { error: Error } | null {
    if (this.recordingBroken) return { error: new Error('outcomes cannot be recorded; the batch stops here and its claims are taken back') };
    if (!this.fence.mayHandOver(listedAt)) return { error: new Error('the dispatcher lease was not renewed in time; the batch stops here and its claims are taken back') };
    return null;
  }

  private async deliverGroup(batchId: string, group: ClaimedMessage[], parts: PartCounts): Promise<void> {
    const { carrier, simulated } = this.carriers.forMessage(group[0].isTest);
    const results: SubmissionResult[] = await carrier.submit(group.map((m) => ({ messageId: m.id, from: m.sender, to: m.to, text: m.body, encoding: m.encoding })));
    const receiptDueAt = simulated ? new Date(this.clock.now().getTime() + this.config.testReceiptDelayMs) : null;
    for (const result of results) for (const part of result.parts) parts[part.smscId ? 'submitted' : 'refused']++;
    await this.recorder
      .add(
        results.flatMap((result, i) =>
          result.parts.map((part) => ({
            batchId,
            accountId: group[i].accountId,
            messageId: result.messageId,
            partNumber: part.partNumber,
            totalParts: part.totalParts,
            smscId: part.smscId,
            error: part.error ?? null,
            receiptDueAt: part.smscId ? receiptDueAt : null,
          })),
        ),
      )
      .catch((err: unknown) => {
        // Before this group's slot is released, so no lane hands over another group meanwhile.
        this.recordingBroken = true;
        throw err;
      });
  }
}

/** Consecutive messages for the same carrier, GROUP at a time: a group is recorded once its last part is answered. */
function groupsOf(batch: ClaimedMessage[], simulatedFor: (m: ClaimedMessage) => boolean): ClaimedMessage[][] {
  const groups: Array<{ simulated: boolean; messages: ClaimedMessage[] }> = [];
  for (const m of batch) {
    const simulated = simulatedFor(m);
    const last = groups[groups.length - 1];
    if (last && last.simulated === simulated && last.messages.length < GROUP) last.messages.push(m);
    else groups.push({ simulated, messages: [m] });
  }
  return groups.map((g) => g.messages);
}
