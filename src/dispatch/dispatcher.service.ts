import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/time/clock';
import { AppConfig } from '../config/app-config';
import type { SubmissionResult } from './carriers/carrier';
import { CarriersService } from './carriers.service';
import { DispatchQueue } from '../queues/dispatch-queue';
import { ClaimedMessage, DispatchRepository, PartChange, PartOutcome } from './dispatch.repository';
import { DeliveryMetrics } from './delivery-metrics';
import { WebhookEventsService } from '../webhooks/webhook-events.service';

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
    private readonly queue: DispatchQueue,
    private readonly metrics: DeliveryMetrics,
    private readonly webhooks: WebhookEventsService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async dispatchSend(sendId: number): Promise<number> {
    const lanes = Array.from({ length: LANES }, () => this.track(this.lane(sendId)));
    return (await Promise.all(lanes)).reduce((a, b) => a + b, 0);
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
      await this.deliver(batch);
      sent += batch.length;
    }
    return sent;
  }

  /**
   * Hands a claimed batch to the carriers in small groups and records each group's outcome as soon as the
   * carrier answers it (group commit: one transaction per few milliseconds of answers). A crash can then
   * only repeat what was on the wire or answered in the last few milliseconds, not the batch.
   */
  private async deliver(batch: ClaimedMessage[]): Promise<void> {
    const ids = batch.map((m) => m.id);
    const heartbeat = setInterval(() => void this.repo.touchClaims(ids).catch(() => undefined), Math.max(250, Math.floor(this.config.claimTimeoutMs / 3)));
    const recorder = new OutcomeRecorder((outcomes) => this.record(outcomes));
    try {
      // Small groups of one carrier: a group's answer is recorded as soon as its last part is answered.
      const groups: Array<{ simulated: boolean; messages: ClaimedMessage[] }> = [];
      for (const m of batch) {
        const simulated = this.carriers.forMessage(m.is_test).simulated;
        const last = groups[groups.length - 1];
        if (last && last.simulated === simulated && last.messages.length < GROUP) last.messages.push(m);
        else groups.push({ simulated, messages: [m] });
      }
      await Promise.all(
        groups.map(async (group) => {
          const { carrier } = this.carriers.forMessage(group.messages[0].is_test);
          const results: SubmissionResult[] = await carrier.submit(group.messages.map((m) => ({ messageId: m.id, from: m.sender, to: m.to_number, text: m.body, encoding: m.encoding })));
          const receiptDueAt = group.simulated ? new Date(this.clock.now().getTime() + this.config.testReceiptDelayMs) : null;
          await recorder.add(
            results.flatMap((result) =>
              result.parts.map((part) => ({ messageId: result.messageId, partNumber: part.partNumber, totalParts: part.totalParts, smscId: part.smscId, error: part.error ?? null, receiptDueAt: part.smscId ? receiptDueAt : null })),
            ),
          );
        }),
      );
    } finally {
      clearInterval(heartbeat);
    }
  }

  private async record(outcomes: PartOutcome[]): Promise<void> {
    let webhookEvents = 0;
    const changed: PartChange[] = await this.repo.recordOutcomes(outcomes, async (changes, m) => {
      webhookEvents += await this.webhooks.partsChanged(changes, m);
    });
    this.metrics.partsSubmitted(outcomes.filter((o) => o.smscId).length, outcomes.filter((o) => !o.smscId).length);
    this.metrics.partsSettled(changed);
    await this.webhooks.deliverSoon(webhookEvents);
    const simulatedDue = outcomes.reduce<Date | null>((latest, o) => (o.receiptDueAt && (!latest || o.receiptDueAt > latest) ? o.receiptDueAt : latest), null);
    if (simulatedDue) await this.queue.simulatedReceiptsDue(simulatedDue);
  }
}

/** Collects outcomes and writes them together; each add() resolves once its outcomes are committed. */
class OutcomeRecorder {
  private pending: PartOutcome[] = [];
  private waiters: Array<{ resolve: () => void; reject: (err: unknown) => void }> = [];
  private timer?: NodeJS.Timeout;

  constructor(private readonly write: (outcomes: PartOutcome[]) => Promise<void>) {}

  add(outcomes: PartOutcome[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push(...outcomes);
      this.waiters.push({ resolve, reject });
      if (this.pending.length >= RECORD_EVERY) void this.flush();
      else this.timer ??= setTimeout(() => void this.flush(), RECORD_AFTER_MS);
    });
  }

  private async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const outcomes = this.pending;
    const waiters = this.waiters;
    this.pending = [];
    this.waiters = [];
    try {
      await this.write(outcomes);
      waiters.forEach((w) => w.resolve());
    } catch (err) {
      waiters.forEach((w) => w.reject(err));
    }
  }
}
