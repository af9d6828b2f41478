import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Counter } from 'prom-client';
import { Clock } from '../common/time/clock';
import { AppConfig } from '../config/app-config';
import { MetricsRegistry } from '../metrics/metrics-registry';
import { HostLimiter } from './host-limiter';
import { WebhookQueue } from '../queues/webhook-queue';
import { WebhookLeases } from './webhook-leases';
import { WebhookSender } from './webhook-sender';
import { ATTEMPT_RESULTS, AttemptOutcome, ClaimedEvent, WebhooksRepository } from './webhooks.repository';

const CLAIM_BATCH = 500;
/** Deliveries in flight in this process at once (all hosts). */
const MAX_IN_FLIGHT = 2000;
const FLUSH_EVERY = 500;
const FLUSH_AFTER_MS = 20;
const DEFER_MS = 250;

/** Delay before retry n (1-based): exponential from the base, capped, with ±20% jitter so retries spread out. */
export function retryDelayMs(retry: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const exponential = Math.min(baseMs * 2 ** (retry - 1), maxMs);
  return Math.round(exponential * (0.8 + 0.4 * random()));
}

/**
 * A streaming deliverer: leases due events while it has room (MAX_IN_FLIGHT), POSTs them under a
 * per-host limit (WEBHOOK_HOST_CONCURRENCY, with a bounded queue per host; beyond it an event is put
 * back for a moment), and records outcomes with group commit. A slow receiver therefore uses only its
 * own slots, and nothing waits for a whole batch to finish before more work is taken. The leases are
 * held (WebhookLeases) from claim until the outcome is recorded, so an event is never attempted again
 * while an attempt of it is alive, and each attempt number is recorded once.
 */
@Injectable()
export class WebhookDeliveryService implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger(WebhookDeliveryService.name);
  private readonly sender: WebhookSender;
  private readonly hosts: HostLimiter;
  private readonly attempts: Counter;
  private readonly leases: WebhookLeases;
  private inFlight = 0;
  private pending: AttemptOutcome[] = [];
  private flushTimer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  private draining?: Promise<void>;
  private stopping = false;

  constructor(
    private readonly repo: WebhooksRepository,
    private readonly queue: WebhookQueue,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    registry: MetricsRegistry,
  ) {
    this.sender = new WebhookSender({ timeoutMs: config.webhookTimeoutMs, allowPrivate: config.webhookAllowPrivate, connectionsPerHost: config.webhookHostConcurrency });
    this.hosts = new HostLimiter(config.webhookHostConcurrency, config.webhookHostConcurrency * 8);
    this.leases = new WebhookLeases(repo, config.webhookTimeoutMs * 4, (msg, meta) => this.logger.warn({ msg, ...meta }));
    this.attempts = registry.counter(
      'sms_webhook_attempts_total',
      'Webhook delivery attempts by outcome',
      ['outcome'],
      ATTEMPT_RESULTS.map((outcome) => ({ outcome })),
    );
  }

  /** Delivers everything due; concurrent callers share one drain. */
  deliverDue(): Promise<void> {
    this.draining ??= this.drain().finally(() => (this.draining = undefined));
    return this.draining;
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.draining;
  }

  async onApplicationShutdown(): Promise<void> {
    this.leases.stop();
    await this.sender.close();
  }

  private async drain(): Promise<void> {
    const sends: Array<Promise<void>> = [];
    let idle = false;
    while (!this.stopping && !idle) {
      const room = MAX_IN_FLIGHT - this.inFlight;
      if (room <= 0) {
        await Promise.race(sends);
        continue;
      }
      const sentAt = this.leases.now();
      const events = await this.repo.claimDue(Math.min(CLAIM_BATCH, room), this.leases.leaseMs, this.leases.holder, this.leases.heldIds());
      this.leases.claimed(
        events.map((e) => e.id),
        sentAt,
      );
      if (events.length === 0) {
        idle = this.inFlight === 0;
        if (!idle) await Promise.race(sends.length ? sends : [new Promise((r) => setTimeout(r, FLUSH_AFTER_MS))]);
        continue;
      }
      for (const event of events) {
        const work = this.attempt(event).then((outcome) => this.record(outcome));
        sends.push(work);
        void work.finally(() => sends.splice(sends.indexOf(work), 1));
      }
    }
    await Promise.all(sends);
    await this.flush();
  }

  private attempt(event: ClaimedEvent): Promise<AttemptOutcome> {
    const now = this.clock.now();
    const outcome = (result: AttemptOutcome['result'], responseStatus: number | null, error: string, durationMs: number, nextAttemptAt: Date | null): AttemptOutcome => ({
      event,
      result,
      responseStatus,
      error,
      durationMs,
      nextAttemptAt,
    });
    // The URL is read at attempt time: switched off means the event is dropped.
    if (!event.url) return Promise.resolve(outcome('discarded', null, 'webhook URL switched off', 0, null));
    this.inFlight++;
    // Checked when the attempt starts, after any wait in the host's queue.
    const send = () => (this.leases.mayAttempt(event.id) ? this.sender.send(event.url, event.body, event.secret, this.clock.now(), event.id) : Promise.resolve(null));
    const run = this.hosts.tryRun(hostOf(event.url), send);
    if (!run) {
      this.inFlight--;
      return Promise.resolve(outcome('deferred', null, '', 0, new Date(now.getTime() + DEFER_MS)));
    }
    return run
      .then((sent) => {
        if (!sent) return outcome('deferred', null, '', 0, this.clock.now());
        if (sent.ok) return outcome('delivered', sent.status, '', sent.durationMs, null);
        const retry = event.attempts + 1; // the retry this failure leads to
        const next =
          retry <= this.config.webhookMaxRetries ? new Date(this.clock.now().getTime() + retryDelayMs(retry, this.config.webhookRetryBaseMs, this.config.webhookRetryMaxMs)) : null;
        return outcome('failed', sent.status, sent.error, sent.durationMs, next);
      })
      .finally(() => this.inFlight--);
  }

  /** Group commit of outcomes: one transaction per FLUSH_EVERY outcomes or FLUSH_AFTER_MS. */
  private record(outcome: AttemptOutcome): void {
    this.pending.push(outcome);
    if (this.pending.length >= FLUSH_EVERY) void this.flush();
    else this.flushTimer ??= setTimeout(() => void this.flush(), FLUSH_AFTER_MS);
  }

  private flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return this.flushing;
    this.flushing = this.flushing
      .then(async () => {
        // If this fails the leases run out and the events are attempted again: at least once, as promised.
        const notRecorded = await this.repo.recordOutcomes(this.leases.holder, batch);
        if (notRecorded > 0) this.logger.warn({ msg: 'webhook outcomes not recorded: their leases ran out and another deliverer holds them', count: notRecorded });
        for (const o of batch) this.attempts.inc({ outcome: o.result });
        const retries = batch.filter((o) => o.result !== 'delivered' && o.result !== 'discarded' && o.nextAttemptAt).map((o) => o.nextAttemptAt!.getTime());
        if (retries.length) await this.queue.wakeAt(new Date(Math.min(...retries)));
      })
      .catch((err: Error) => this.logger.warn({ msg: 'recording webhook outcomes failed; the leases will expire and the events be attempted again', err: err.message }))
      .finally(() => this.leases.release(batch.map((o) => o.event.id)));
    return this.flushing;
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
