import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { runInLogContext } from '../../common/logging/log-context';
import { RepeatedLines } from '../../common/logging/repeated-lines';
import { Clock } from '../../common/time/clock';
import { AppConfig } from '../../config/app-config';
import { ClaimedMessage, ClaimsRepository } from '../state/claims.repository';
import { LeasesRepository } from '../state/leases.repository';
import type { PartOutcome } from '../state/part-changes';
import type { SubmissionResult } from './carriers/carrier';
import { CarriersService, type MessageRoute } from './carriers.service';
import { DeliveryRecordsService } from './delivery-records.service';
import { DispatcherLease, type ListedBatch } from './dispatcher-lease';
import { OutcomeRecorder } from './outcome-recorder';

/** Parts of a batch the carrier accepted and refused (for the `dispatched` log line). */
interface PartCounts {
  submitted: number;
  refused: number;
}

/** Lanes per job: while one lane claims, the other keeps the carrier busy. */
const LANES = 2;
/** Messages handed to the carrier together; their outcomes are recorded when the last is answered. */
const GROUP = 10;

/**
 * Takes a send's due messages in batches (each claim moves the send's watermark and writes one batch row,
 * no message row), hands them to the carrier and records every part's outcome. What may be handed over
 * is decided by two units of its own: the lease (a batch is handed over only while it is certainly this
 * process's) and the outcome recorder (a bounded amount unrecorded, nothing once a recording failed).
 */
@Injectable()
export class DispatcherService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DispatcherService.name);
  private stopping = false;
  private readonly running = new Set<Promise<number>>();
  private readonly lease: DispatcherLease;
  private readonly recorder: OutcomeRecorder;

  constructor(
    private readonly claims: ClaimsRepository,
    leases: LeasesRepository,
    private readonly carriers: CarriersService,
    records: DeliveryRecordsService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.lease = new DispatcherLease(leases, config.claimTimeoutMs, (msg, meta) => this.logger.warn({ msg, ...meta }));
    const kept = new RepeatedLines((msg, meta) => this.logger.warn({ msg, ...meta }));
    this.recorder = new OutcomeRecorder(
      (outcomes) => records.recordOutcomes(outcomes),
      groupsOutFor(carriers.windowTotal()),
      (err) => kept.note('submission outcomes kept until PostgreSQL takes them', { err: (err as Error).message }),
    );
    // The bound follows the carriers this worker has now (carrier:add, update, disable, remove).
    carriers.onChange(() => this.recorder.resize(groupsOutFor(carriers.windowTotal())));
  }

  /** Groups of messages that may be out with the carriers and not yet recorded, at most. */
  get groupsOutLimit(): number {
    return this.recorder.capacity;
  }

  /**
   * Runs in the log context of the request that created the send (its X-Request-Id and account, read
   * from the send row: the job may come from the sweeper, and the request's process may be gone), so
   * every line about these messages can be found by the id the client saw.
   */
  async dispatchSend(sendId: number): Promise<number> {
    const trace = await this.claims.sendTrace(sendId);
    const context = trace ? { reqId: trace.requestId ?? undefined, accountId: trace.accountId } : {};
    return runInLogContext(context, async () => {
      const lanes = Array.from({ length: LANES }, () => this.track(this.lane(sendId)));
      return (await Promise.all(lanes)).reduce((a, b) => a + b, 0);
    });
  }

  onApplicationBootstrap(): void {
    this.lease.start();
  }

  /** On shutdown: claim nothing new, let the batches already out finish and be recorded, give up the lease. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.logger.log({ msg: 'dispatch stopping: no new claims; finishing the batches already out', lanes: this.running.size });
    await Promise.allSettled([...this.running]);
    await this.lease.stop();
    this.logger.log({ msg: 'dispatch stopped' });
  }

  private track(work: Promise<number>): Promise<number> {
    this.running.add(work);
    return work.finally(() => this.running.delete(work));
  }

  private async lane(sendId: number): Promise<number> {
    let sent = 0;
    while (!this.stopping) {
      const batchId = randomUUID();
      const listed = this.lease.list(batchId);
      try {
        const claim = await this.claims.claimDue(sendId, this.config.dispatchBatchSize, batchId);
        this.recorder.databaseReached();
        if (!claim.moved) break;
        const batch = claim.messages;
        // It walked past cancelled messages only: nothing to hand over, the rest of the send is next.
        if (batch.length === 0) continue;
        const parts = await this.deliver(batchId, batch, listed).catch((err: Error) => {
          // The job is retried and the sweeper takes the unrecorded claims back; say why this batch stopped.
          this.logger.warn({ msg: 'dispatch batch stopped', sendId, batchId, messages: batch.length, err: err.message });
          throw err;
        });
        // Every outcome is recorded (deliver throws otherwise): the sweeper has nothing to watch here.
        await this.claims.batchRecorded(batchId).catch((err: Error) => this.logger.warn({ msg: 'dispatch batch row not removed', err: err.message }));
        this.logger.log({ msg: 'dispatched', sendId, messages: batch.length, partsSubmitted: parts.submitted, partsRefused: parts.refused });
        sent += batch.length;
      } finally {
        listed.unlist();
      }
    }
    return sent;
  }

  /**
   * Hands a claimed batch to the carriers in small groups and records each group's outcome as soon as the
   * carrier answers it. Before each group: room in the recorder's bound, a recorder that is not broken,
   * and a batch still certainly this process's; otherwise the batch stops there and the sweeper takes the
   * rest back. So a crash can only repeat what was already out, never a batch; an outage the process lives
   * through (within the lease) repeats nothing: the answers are kept and recorded when PostgreSQL is back.
   */
  private async deliver(batchId: string, batch: ClaimedMessage[], listed: ListedBatch): Promise<PartCounts> {
    const parts: PartCounts = { submitted: 0, refused: 0 };
    const out = new Set<Promise<void>>();
    let failure: { error: unknown } | null = null;
    for (const group of groupsOf(batch, (m) => this.carriers.forMessage(m))) {
      await this.recorder.acquire();
      // A short outage pauses the batch while the answers already in are kept; a long one stops it.
      await this.recorder.outageOver(() => listed.mayHandOver());
      failure ??= this.reasonToStop(listed);
      if (failure) {
        this.recorder.release();
        break;
      }
      const handed: Promise<void> = this.deliverGroup(batchId, group, parts, listed)
        .catch((error: unknown) => void (failure ??= { error }))
        .finally(() => {
          this.recorder.release();
          out.delete(handed);
        });
      out.add(handed);
    }
    // Every group handed over settles before the batch ends (and leaves the lease).
    await Promise.all(out);
    if (failure) throw (failure as { error: unknown }).error;
    return parts;
  }

  /** Why no more of the batch may be handed over, or null while it may. */
  private reasonToStop(listed: ListedBatch): { error: Error } | null {
    if (this.recorder.broken) return { error: new Error('outcomes cannot be recorded; the batch stops here and its claims are taken back') };
    if (!listed.mayHandOver()) return { error: new Error('the dispatcher lease was not renewed in time; the batch stops here and its claims are taken back') };
    return null;
  }

  private async deliverGroup(batchId: string, { route, messages: group }: RoutedGroup, parts: PartCounts, listed: ListedBatch): Promise<void> {
    const { carrier, simulated } = route;
    const mayHandOver = () => listed.mayHandOver();
    const messages = group.map((m) => ({ messageId: m.id, from: m.sender, to: m.to, text: m.body, encoding: m.encoding }));
    const results: SubmissionResult[] = await carrier.submit(messages, { mayHandOver });
    const receiptDueAt = simulated ? new Date(this.clock.now().getTime() + this.config.testReceiptDelayMs) : null;
    const outcomes: PartOutcome[] = [];
    let withheld = 0;
    results.forEach((result, i) => {
      // A part never handed to a carrier (every carrier of its route down past the lease fence): the message
      // is not recorded, so the batch stops and the sweeper takes it back (its parts sent are sent again).
      if (result.parts.some((p) => p.outcome === 'withheld')) {
        withheld++;
        return;
      }
      for (const part of result.parts) {
        parts[part.smscId ? 'submitted' : 'refused']++;
        outcomes.push({
          batchId,
          accountId: group[i].accountId,
          messageId: result.messageId,
          partNumber: part.partNumber,
          totalParts: part.totalParts,
          carrierId: part.carrierId,
          smscId: part.smscId,
          error: part.error ?? null,
          errorCode: part.errorCode ?? null,
          receiptDueAt: part.smscId ? receiptDueAt : null,
        });
      }
    });
    await this.recorder.recordKept(outcomes, mayHandOver);
    if (withheld > 0) throw new Error(`${withheld} messages waited for a carrier past the lease fence; they are taken back`);
  }
}

/**
 * The in-flight bound: twice the carriers' window (Σ binds × window of the carriers the worker has) may
 * be out unrecorded, one window answered and one in flight, in groups of GROUP messages.
 */
export function groupsOutFor(windowTotal: number): number {
  return Math.max(2, Math.ceil((2 * windowTotal) / GROUP));
}

/** Messages of one route, handed to its carrier together. */
interface RoutedGroup {
  route: MessageRoute;
  messages: ClaimedMessage[];
}

/**
 * Consecutive messages of the same route (test accounts: the simulator), GROUP at a time: a group is
 * recorded once its last part is answered. The route is decided here once per message (a cached match).
 */
function groupsOf(batch: ClaimedMessage[], routeOf: (m: ClaimedMessage) => MessageRoute): RoutedGroup[] {
  const groups: RoutedGroup[] = [];
  for (const m of batch) {
    const route = routeOf(m);
    const last = groups[groups.length - 1];
    if (last && last.route === route && last.messages.length < GROUP) last.messages.push(m);
    else groups.push({ route, messages: [m] });
  }
  return groups;
}
