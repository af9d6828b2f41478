import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { Counter } from 'prom-client';
import { Clock } from '../common/time/clock';
import { AppConfig } from '../config/app-config';
import { MetricsRegistry } from '../metrics/metrics-registry';
import { HostLimiter } from './host-limiter';
import { WebhookQueue } from '../queues/webhook-queue';
import { WebhookLeases } from './webhook-leases';
import { WebhookSender } from './webhook-sender';
import type { SendResult } from './webhook-attempt-handler';
import { countByResult, earliestRetry, outcomeOf, outcomeOfAnswer, RetrySchedule } from './attempt-outcome';
import { Alarm } from '../common/time/alarm';
import { OutcomeBatcher } from './outcome-batcher';
import { ClaimPlanner } from './claim-planner';
import { ATTEMPT_RESULTS, AttemptOutcome, ClaimedEvent, WebhookDeliveryRepository } from './webhook-delivery.repository';

const CLAIM_BATCH = 500;
/**
 * Deliveries in flight in this process at once (all hosts). While anything is in flight, a claim also
 * waits until this leaves room for the smallest claim (below); it is well above what two slow hosts hold
 * at the default concurrency (2 × 1056), so they alone never stop everyone else's claims.
 */
const MAX_IN_FLIGHT = 3000;
/**
 * While deliveries are in flight, a claim waits until at least this share of a host's queue is free (or
 * nothing is in flight), so claims stay batches instead of one statement per few finished deliveries,
 * while half the queue still keeps the receiver busy. Each claim reads past every event in flight (leased
 * events stay in the due index), so larger claims read less per event: with claims of about 90 PostgreSQL
 * spent about a third more per event than with claims of 256, and with claims of 500 (half of 1024) about
 * a sixth less than with 256 (bench:webhooks, 32 connections). A host with less than this share free
 * (at most CLAIM_BATCH) counts as full: its accounts are left out of claims (ClaimPlanner).
 */
const MIN_CLAIM_SHARE_OF_HOST_QUEUE = 0.5;
/**
 * Deliveries queued per connection to one host: enough for a fast receiver to keep its connections busy
 * while the next claim runs (32 connections queue 1024, 0.25 s at 4000 per second), few enough that a
 * slow one holds about a third of MAX_IN_FLIGHT.
 */
const HOST_QUEUE_PER_CONNECTION = 32;
/**
 * Outcomes are recorded (one transaction) once FLUSH_EVERY have finished, or FLUSH_AFTER_MS after the first
 * of them. Each recording costs a transaction, a commit and twelve array parameters beside its rows, so at
 * a receiver's full rate the batches should be full: after 20 ms they held about 200 outcomes, and a burst
 * took a little more CPU per event (bench:webhooks). An outcome waits at most this long before its
 * recording starts, its lease held meanwhile; its retry is due from the attempt's time, but starts only once
 * the outcome is recorded.
 */
const FLUSH_EVERY = 500;
const FLUSH_AFTER_MS = 100;
const DEFER_MS = 250;

/**
 * A streaming deliverer: leases due events while it has room (MAX_IN_FLIGHT), POSTs them under a
 * per-host limit (WEBHOOK_HOST_CONCURRENCY, with a bounded queue per host; beyond it an event is put
 * back for a moment), and records outcomes with group commit. A slow receiver therefore uses only its
 * own slots, its accounts are left out of claims while its queue is full, and nothing waits for a whole
 * batch to finish before more work is taken. The leases are held (WebhookLeases) from claim until the
 * outcome is recorded, so an event is never attempted again while an attempt of it is alive, and each
 * attempt number is recorded once.
 *
 * Claims follow what the hosts take (ClaimPlanner): a claim takes no more than the least free busy host
 * has room for, and leaves out the accounts whose host is full, so a backlog for one receiver streams
 * through its queue instead of being claimed and put back, or standing in front of everyone else's; and
 * a drain that put events back stays until they are due, rather than ending and waiting for a wake-up.
 */
@Injectable()
export class WebhookDeliveryService implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger(WebhookDeliveryService.name);
  private readonly sender: WebhookSender;
  private readonly hosts: HostLimiter;
  private readonly attempts: Counter;
  private readonly leases: WebhookLeases;
  private readonly planner: ClaimPlanner;
  /** Events put back fall due: a wake-up. */
  private readonly putBackDue = new Alarm(() => this.wake());
  /** The planner's own time to look again (ClaimPlan.retryInMs). */
  private readonly lookAgain = new Alarm(() => this.notify());
  private inFlight = 0;
  /** Resolved when an attempt finishes (a slot freed) or a wake-up arrives. */
  private finished?: { promise: Promise<void>; resolve: () => void };
  private readonly outcomes = new OutcomeBatcher<AttemptOutcome>(
    (batch) => this.writeOutcomes(batch),
    (err) => this.outcomesFailed(err),
    FLUSH_EVERY,
    FLUSH_AFTER_MS,
  );
  private draining?: Promise<void>;
  /** A wake-up arrived during a drain, maybe after its last claim: drain once more. */
  private wokenWhileDraining = false;
  private stopping = false;
  private readonly now = () => this.clock.now();
  private readonly retrySchedule: RetrySchedule;

  constructor(
    private readonly repo: WebhookDeliveryRepository,
    private readonly queue: WebhookQueue,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    registry: MetricsRegistry,
  ) {
    this.retrySchedule = { maxRetries: config.webhookMaxRetries, baseMs: config.webhookRetryBaseMs, maxMs: config.webhookRetryMaxMs };
    this.sender = new WebhookSender({ timeoutMs: config.webhookTimeoutMs, allowPrivate: config.webhookAllowPrivate, connectionsPerHost: config.webhookHostConcurrency });
    const hostQueue = config.webhookHostConcurrency * HOST_QUEUE_PER_CONNECTION;
    this.hosts = new HostLimiter(config.webhookHostConcurrency, hostQueue);
    const minClaim = Math.max(1, Math.min(CLAIM_BATCH, Math.floor(hostQueue * MIN_CLAIM_SHARE_OF_HOST_QUEUE)));
    this.planner = new ClaimPlanner({ batch: CLAIM_BATCH, minClaim, maxInFlight: MAX_IN_FLIGHT }, this.hosts);
    this.leases = new WebhookLeases(repo, config.webhookTimeoutMs * 4, (msg, meta) => this.logger.warn({ msg, ...meta }));
    const planner = this.planner;
    const inFlight = () => this.inFlight;
    registry.gauge('sms_webhook_in_flight', 'Webhook deliveries running or queued in this worker', [], function () {
      this.set(inFlight());
    });
    registry.gauge('sms_webhook_hosts_full', 'Receiving hosts whose queue in this worker is full (their accounts wait until it has room)', [], function () {
      this.set(planner.fullHostCount());
    });
    this.attempts = registry.counter(
      'sms_webhook_attempts_total',
      'Webhook delivery attempts by outcome',
      ['outcome'],
      ATTEMPT_RESULTS.map((outcome) => ({ outcome })),
    );
  }

  /**
   * Delivers everything due. A call during a drain wakes it (its next claim looks at everything, and it
   * runs once more if it was ending) and returns at once: a drain lasts as long as a slow receiver's
   * backlog, and wake-up jobs waiting for it would hold the queue's slots and wake nothing.
   */
  deliverDue(): Promise<void> {
    if (this.draining) {
      this.wokenWhileDraining = true;
      this.wake();
      return Promise.resolve();
    }
    this.draining = (async () => {
      do {
        this.wokenWhileDraining = false;
        await this.drain();
      } while (this.wokenWhileDraining && !this.stopping);
    })().finally(() => (this.draining = undefined));
    return this.draining;
  }

  /**
   * The periodic backstop for lost wake-up jobs: starts a drain when none runs. A running drain is left
   * alone: it looks again by itself (ClaimPlanner), and a wake-up would make it claim past every due event
   * of the accounts it leaves out.
   */
  sweep(): Promise<void> {
    return this.draining ? Promise.resolve() : this.deliverDue();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    // What waits in a host's queue starts now and answers without sending (attempt), so it is given back
    // while the attempts under way finish.
    this.hosts.startQueued();
    this.notify();
    await this.draining;
  }

  async onApplicationShutdown(): Promise<void> {
    this.leases.stop();
    await this.sender.close();
  }

  private async drain(): Promise<void> {
    /** When the last events this drain put back fall due (performance.now()). */
    let putBackUntil = 0;
    this.planner.woken();
    while (!this.stopping) {
      const plan = this.planner.next(this.inFlight);
      if (plan.size === 0) {
        const putBackIn = putBackUntil - performance.now();
        if (this.inFlight === 0 && putBackIn <= 0 && !this.wokenWhileDraining) break;
        // The put-back's own timer counts from the event loop's cached clock, so it can fire a little before
        // performance.now() reaches putBackUntil, and the claim it wakes finds nothing yet: look again then.
        if (putBackIn > 0) this.putBackDue.within(Math.ceil(putBackIn) + 1);
        else if (plan.retryInMs !== undefined) this.lookAgain.within(plan.retryInMs);
        await this.signalled();
        continue;
      }
      // A wake-up from here on may be for events this claim does not see: noted, and claimed again.
      this.wokenWhileDraining = false;
      const sentAt = this.leases.now();
      const events = await this.repo.claimDue(plan.size, this.leases.leaseMs, this.leases.holder, this.leases.mayHaveLapsed(), plan.excluding);
      this.planner.claimed(plan, events.length, this.leases.now() - sentAt);
      this.leases.claimed(
        events.map((e) => e.id),
        sentAt,
      );
      let putBack = 0;
      for (const event of events) if (this.attempt(event)) putBack++;
      if (putBack > 0) {
        putBackUntil = performance.now() + DEFER_MS;
        this.putBackDue.within(DEFER_MS);
      }
    }
    this.putBackDue.cancel();
    this.lookAgain.cancel();
    // Stopping: the attempts under way finish (those that were queued behind them for their host were
    // started without sending, see beforeApplicationShutdown), and every outcome is recorded.
    while (this.inFlight > 0) await this.signalled();
    await this.outcomes.flush();
  }

  /** Resolves at the next finished attempt, wake-up or alarm. */
  private signalled(): Promise<void> {
    if (!this.finished) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.finished = { promise, resolve };
    }
    return this.finished.promise;
  }

  /** Events stored, scheduled or put back may be claimable now. */
  private wake(): void {
    this.planner.woken();
    this.notify();
  }

  private slotFreed(): void {
    this.inFlight--;
    this.notify();
  }

  private notify(): void {
    const finished = this.finished;
    this.finished = undefined;
    finished?.resolve();
  }

  /**
   * Starts one attempt, its outcome recorded when known: one `.then` per attempt beside the host queue's
   * own, not a chain of four promises, since a burst runs this thousands of times a second. Answers true
   * when the host's queue was full and the event is put back.
   */
  private attempt(event: ClaimedEvent): boolean {
    // The URL is read at attempt time: switched off means the event is dropped.
    if (!event.url) {
      this.outcomes.add(outcomeOf(event, 'discarded', null, 'webhook URL switched off', 0, null));
      return false;
    }
    // Checked when the attempt starts, after any wait in the host's queue. A stopping deliverer starts none:
    // what waited behind a slow host goes back, its attempts not counted, for another deliverer, rather than
    // holding the stop for the host's whole queue (32 per connection, each up to WEBHOOK_TIMEOUT_MS).
    const send = () =>
      !this.stopping && this.leases.mayAttempt(event.id) ? this.sender.send(event.url, event.body, event.secret, this.clock.now(), event.id) : Promise.resolve(null);
    const host = this.sender.hostOf(event.url);
    this.planner.routed(event.kind, event.account_id, host);
    const run = this.hosts.tryRun(host, send);
    if (!run) {
      this.outcomes.add(outcomeOf(event, 'deferred', null, '', 0, new Date(this.clock.now().getTime() + DEFER_MS)));
      return true;
    }
    this.inFlight++;
    run.then(
      (sent) => this.answered(event, sent),
      (err: Error) => {
        // The sender answers every attempt; should that ever break, the event is tried again, not held.
        this.logger.warn({ msg: 'webhook attempt ended without an answer; it is tried again', err: err.message });
        this.answered(event, null);
      },
    );
    return false;
  }

  /**
   * An attempt's answer (null: not started, its lease not certain or the deliverer stopping) recorded, and then
   * its slot freed: a stopping drain takes no in-flight attempts as every outcome waiting in `outcomes`, ready
   * for its last flush.
   */
  private answered(event: ClaimedEvent, sent: SendResult | null): void {
    try {
      this.outcomes.add(outcomeOfAnswer(event, sent, this.now, this.retrySchedule));
    } finally {
      this.slotFreed();
    }
  }

  /**
   * One group of outcomes recorded (one transaction), then their leases released. Should it fail, the leases
   * run out and the events are attempted again: at least once, as promised.
   */
  private async writeOutcomes(batch: AttemptOutcome[]): Promise<void> {
    try {
      const notRecorded = await this.leases.exclusive(() => this.repo.recordOutcomes(this.leases.holder, batch));
      if (notRecorded > 0) this.logger.warn({ msg: 'webhook outcomes not recorded: their leases ran out and another deliverer holds them', count: notRecorded });
      for (const [outcome, n] of countByResult(batch)) this.attempts.inc({ outcome }, n);
      const retryAt = earliestRetry(batch);
      if (retryAt) await this.queue.wakeAt(retryAt);
    } finally {
      this.leases.release(batch.map((o) => o.event.id));
    }
  }

  private outcomesFailed(err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    this.logger.warn({ msg: 'recording webhook outcomes failed; the leases will expire and the events be attempted again', err: message });
  }
}
