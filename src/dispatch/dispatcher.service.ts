import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/time/clock';
import { AppConfig } from '../config/app-config';
import type { Carrier, OutboundMessage, SubmissionResult } from './carriers/carrier';
import { CarriersService } from './carriers.service';
import { DispatchQueue } from './dispatch-queue';
import { ClaimedMessage, DispatchRepository, PartChange, PartOutcome } from './dispatch.repository';
import { DeliveryMetrics } from './delivery-metrics';
import { WebhookEventsService } from '../webhooks/webhook-events.service';

/** Lanes per job: while one lane claims, the other keeps the carrier busy. */
const LANES = 2;
/** Messages submitted and recorded together, and how many such chunks a lane keeps out at once. */
const CHUNK = 50;
const CHUNKS_IN_FLIGHT = 8;

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
   * Submits a claimed batch in chunks, several at once, recording each chunk's outcome as soon as the
   * carrier has answered it. A crash can then only repeat what was on the wire or answered but not yet
   * recorded (about the carrier's window), not the whole batch.
   */
  private async deliver(batch: ClaimedMessage[]): Promise<void> {
    const ids = batch.map((m) => m.id);
    const heartbeat = setInterval(() => void this.repo.touchClaims(ids).catch(() => undefined), Math.max(250, Math.floor(this.config.claimTimeoutMs / 3)));
    try {
      const chunks: ClaimedMessage[][] = [];
      for (let i = 0; i < batch.length; i += CHUNK) chunks.push(batch.slice(i, i + CHUNK));
      let next = 0;
      const worker = async () => {
        while (next < chunks.length) await this.deliverChunk(chunks[next++]);
      };
      await Promise.all(Array.from({ length: Math.min(CHUNKS_IN_FLIGHT, chunks.length) }, worker));
    } finally {
      clearInterval(heartbeat);
    }
  }

  private async deliverChunk(chunk: ClaimedMessage[]): Promise<void> {
    const groups = new Map<Carrier, { simulated: boolean; messages: OutboundMessage[] }>();
    for (const m of chunk) {
      const { carrier, simulated } = this.carriers.forMessage(m.is_test);
      const group = groups.get(carrier) ?? { simulated, messages: [] };
      group.messages.push({ messageId: m.id, from: m.sender, to: m.to_number, text: m.body, encoding: m.encoding });
      groups.set(carrier, group);
    }
    const outcomes: PartOutcome[] = [];
    let simulatedDue: Date | null = null;
    await Promise.all(
      [...groups].map(async ([carrier, group]) => {
        const results: SubmissionResult[] = await carrier.submit(group.messages);
        const receiptDueAt = group.simulated ? new Date(this.clock.now().getTime() + this.config.testReceiptDelayMs) : null;
        if (receiptDueAt) simulatedDue = receiptDueAt;
        for (const result of results) {
          for (const part of result.parts) {
            outcomes.push({ messageId: result.messageId, partNumber: part.partNumber, totalParts: part.totalParts, smscId: part.smscId, error: part.error ?? null, receiptDueAt: part.smscId ? receiptDueAt : null });
          }
        }
      }),
    );
    const changed: PartChange[] = await this.repo.recordOutcomes(outcomes, (changes, m) => this.webhooks.partsChanged(changes, m).then(() => undefined));
    this.metrics.partsSubmitted(outcomes.filter((o) => o.smscId).length, outcomes.filter((o) => !o.smscId).length);
    this.metrics.partsSettled(changed);
    await this.webhooks.deliverSoon(changed.length);
    if (simulatedDue) await this.queue.simulatedReceiptsDue(simulatedDue);
  }
}
