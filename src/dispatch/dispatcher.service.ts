import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { GroupCommit } from '../common/batching/group-commit';
import { runInLogContext } from '../common/logging/log-context';
import { Clock } from '../common/time/clock';
import { AppConfig } from '../config/app-config';
import type { SubmissionResult } from './carriers/carrier';
import { CarriersService } from './carriers.service';
import { DeliveryRecordsService } from './delivery-records.service';
import { ClaimedMessage, DispatchRepository, PartOutcome } from './dispatch.repository';

/** Lanes per job: while one lane claims, the other keeps the carrier busy. */
const LANES = 2;
/** Messages handed to the carrier together; their outcomes are recorded when the last is answered. */
const GROUP = 10;
/** Outcomes are committed when this many have been answered, or this long after the first. */
const RECORD_EVERY = 200;
const RECORD_AFTER_MS = 10;

/**
 * Takes a send's due messages in batches (one conditional UPDATE each), hands them to the carrier and
 * records every part's outcome in one statement. A claim is refreshed while its batch is out, so the
 * sweeper only takes back the work of a dispatcher that died.
 */
@Injectable()
export class DispatcherService implements BeforeApplicationShutdown {
  private readonly logger = new Logger(DispatcherService.name);
  private stopping = false;
  private readonly running = new Set<Promise<number>>();

  constructor(
    private readonly repo: DispatchRepository,
    private readonly carriers: CarriersService,
    private readonly records: DeliveryRecordsService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

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

  /** On shutdown: claim nothing new, let the batches already out finish and be recorded. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.logger.log({ msg: 'dispatch stopping: no new claims; finishing the batches already out', lanes: this.running.size });
    await Promise.allSettled([...this.running]);
    this.logger.log({ msg: 'dispatch stopped' });
  }

  private track(work: Promise<number>): Promise<number> {
    this.running.add(work);
    return work.finally(() => this.running.delete(work));
  }

  private async lane(sendId: number): Promise<number> {
    let sent = 0;
    while (!this.stopping) {
      const batch = await this.repo.claimDue(sendId, this.config.dispatchBatchSize);
      if (batch.length === 0) break;
      const parts = await this.deliver(batch);
      this.logger.log({ msg: 'dispatched', sendId, messages: batch.length, partsSubmitted: parts.submitted, partsRefused: parts.refused });
      sent += batch.length;
    }
    return sent;
  }

  /**
   * Hands a claimed batch to the carriers in small groups and records each group's outcome as soon as the
   * carrier answers it (group commit: one transaction per few milliseconds of answers). A crash can then
   * only repeat what was on the wire or answered in the last few milliseconds, not the batch.
   */
  private async deliver(batch: ClaimedMessage[]): Promise<{ submitted: number; refused: number }> {
    const ids = batch.map((m) => m.id);
    const parts = { submitted: 0, refused: 0 };
    const heartbeat = setInterval(() => void this.repo.touchClaims(ids).catch(() => undefined), Math.max(250, Math.floor(this.config.claimTimeoutMs / 3)));
    const recorder = new GroupCommit<PartOutcome>((outcomes) => this.records.recordOutcomes(outcomes), { maxItems: RECORD_EVERY, maxWaitMs: RECORD_AFTER_MS });
    try {
      // Small groups of one carrier: a group's answer is recorded as soon as its last part is answered.
      const groups: Array<{ simulated: boolean; messages: ClaimedMessage[] }> = [];
      for (const m of batch) {
        const simulated = this.carriers.forMessage(m.isTest).simulated;
        const last = groups[groups.length - 1];
        if (last && last.simulated === simulated && last.messages.length < GROUP) last.messages.push(m);
        else groups.push({ simulated, messages: [m] });
      }
      await Promise.all(
        groups.map(async (group) => {
          const { carrier } = this.carriers.forMessage(group.messages[0].isTest);
          const results: SubmissionResult[] = await carrier.submit(group.messages.map((m) => ({ messageId: m.id, from: m.sender, to: m.to, text: m.body, encoding: m.encoding })));
          const receiptDueAt = group.simulated ? new Date(this.clock.now().getTime() + this.config.testReceiptDelayMs) : null;
          for (const result of results) for (const part of result.parts) parts[part.smscId ? 'submitted' : 'refused']++;
          await recorder.add(
            results.flatMap((result) =>
              result.parts.map((part) => ({
                messageId: result.messageId,
                partNumber: part.partNumber,
                totalParts: part.totalParts,
                smscId: part.smscId,
                error: part.error ?? null,
                receiptDueAt: part.smscId ? receiptDueAt : null,
              })),
            ),
          );
        }),
      );
      return parts;
    } finally {
      clearInterval(heartbeat);
    }
  }
}
