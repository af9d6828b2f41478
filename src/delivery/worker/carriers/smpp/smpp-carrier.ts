/**
 * The live carrier: N bind_transceiver sessions to one SMSC account.
 *
 * Throughput: parts are pipelined, up to `window` unanswered submit_sm per bind, each bind capped by its
 * own TPS token bucket; a part goes to the ready bind with the fewest unanswered submits.
 *
 * Delivery guarantee towards the SMSC is at-least-once. A part whose bind drops (or whose resp times
 * out, which drops the bind) before its submit_sm_resp arrives is sent again on the next healthy bind:
 * if the SMSC had accepted it and only the resp was lost, the handset may get it twice. SMPP offers no
 * way to tell the two cases apart. ESME_RTHROTTLED / ESME_RMSGQFUL pause the bind and re-send the part;
 * any other non-zero status fails that part permanently.
 *
 * With SubmitOptions.handBack (a CarrierGroup of several carriers) the carrier does not keep those
 * parts: a temporary refusal (throttled, queue full, system error) resolves the part as 'temporary', and
 * when the carrier's last bind goes down its parts in doubt resolve as 'in-doubt' and its queued ones as
 * 'temporary', so the group sends them through another member at once. A bind lost while other binds of
 * the carrier are up still re-sends its unanswered parts here.
 *
 * retire() (the fleet's, when carrier:update replaces the connection or the carrier is disabled or
 * removed) is close() that gives back instead of failing: parts not yet sent resolve 'temporary' at once
 * (a successor or another carrier sends them), parts sent are waited for up to submitTimeoutMs and those
 * still unanswered then resolve 'in-doubt'; a throttled answer resolves 'temporary'. Nothing is failed
 * for the retirement, whatever the caller's SubmitOptions.
 *
 * Receipts and inbound messages are acknowledged (deliver_sm_resp) only after their handler resolves,
 * so the SMSC redelivers anything not yet stored; handlers must therefore be idempotent.
 */
import type { Carrier, CarrierState, DeliveryReceipt, InboundSms, OutboundMessage, SubmissionResult, SubmitOptions } from '../carrier';
import { classifyDeliver, handleDeliver } from './deliver';
import { Fifo } from './flow-control';
import { describeStatus, ESME_ROK } from '../../../../smpp/commands';
import { isTemporaryStatus, isThrottleStatus, SmppBind } from './smpp-bind';
import type { BindListener } from './smpp-bind';
import { RepeatedLines } from '../../../../common/logging/repeated-lines';
import { resolveSmppOptions } from './smpp-options';
import type { ResolvedSmppOptions, SmppCarrierOptions } from './smpp-options';
import { partTasks, settlePart } from './part-tasks';
import { applySourceAddressing } from '../../../../smpp/addressing';
import type { PartTask } from './part-tasks';
import { BindPicker } from './bind-picker';
import { Alarm } from '../../../../common/time/alarm';

export class SmppCarrier implements Carrier, BindListener<PartTask> {
  readonly id: number;
  readonly name: string;
  private readonly options: ResolvedSmppOptions;
  private readonly handlerFailures: RepeatedLines;
  private readonly binds: SmppBind<PartTask>[];
  /** Parts to send again (throttled, or unanswered on a dropped bind) go before new ones. */
  private readonly retryQueue = new Fifo<PartTask>();
  private readonly queue = new Fifo<PartTask>();
  private receiptHandler: ((r: DeliveryReceipt) => void | Promise<void>) | null = null;
  private inboundHandler: ((m: InboundSms) => void | Promise<void>) | null = null;
  private submitted = 0;
  private throttled = 0;
  private nextRef = Math.floor(Math.random() * 256);
  private readonly picker: BindPicker<SmppBind<PartTask>>;
  private pumping = false;
  /** A pump when the first busy bind may send again (every bind throttled or at its window). */
  private readonly pumpLater = new Alarm(() => this.pump());
  private started = false;
  private closing: Promise<void> | null = null;
  /** Set by retire(): what is not answered goes back to the caller instead of failing. */
  private returning = false;
  /** Set once close() has waited for the queues: from then on nothing is queued or re-sent. */
  private stopped = false;
  private startWaiters: { resolve(): void; reject(err: Error): void }[] = [];
  private readonly failedBeforeUp = new Set<number>();
  /** When each unanswered part went out, for the observer's answer latency (only with an observer). */
  private readonly sentAt = new WeakMap<PartTask, number>();

  constructor(options: SmppCarrierOptions) {
    this.options = resolveSmppOptions(options);
    this.id = this.options.id;
    this.name = this.options.name;
    this.handlerFailures = new RepeatedLines((msg, meta) => this.options.logger.error(msg, meta));
    this.binds = Array.from({ length: this.options.binds }, (_, i) => new SmppBind<PartTask>(i, this.options, this));
    this.picker = new BindPicker(this.binds);
  }

  /**
   * Opens every bind (idempotent; submit() calls it too). Resolves once one bind is up; rejects when
   * every bind has failed its first attempt (bad credentials, SMSC unreachable). Binds keep retrying.
   */
  start(): Promise<void> {
    if (this.closing) return Promise.reject(new Error('SMPP carrier is closed'));
    if (!this.started) {
      this.started = true;
      for (const bind of this.binds) bind.start();
    }
    if (this.binds.some((b) => b.status === 'bound')) return Promise.resolve();
    return new Promise((resolve, reject) => this.startWaiters.push({ resolve, reject }));
  }

  async submit(messages: OutboundMessage[], options?: SubmitOptions): Promise<SubmissionResult[]> {
    if (this.returning) return this.giveBackAll(messages);
    if (this.closing) throw new Error('SMPP carrier is closed');
    this.start().catch(() => undefined); // failures are logged and visible in state(); parts wait for a bind
    const handBack = options?.handBack === true;
    const results = Promise.all(messages.map((message) => this.enqueue(message, handBack)));
    // A group asks only a carrier with a bind up; if it went down meanwhile, the parts go straight back.
    if (handBack && !this.anyBound()) this.handBackQueued('no bind is up');
    this.pump();
    return results;
  }

  onReceipt(handler: (r: DeliveryReceipt) => void | Promise<void>): void {
    this.receiptHandler = handler;
  }

  onInbound(handler: (m: InboundSms) => void | Promise<void>): void {
    this.inboundHandler = handler;
  }

  state(): CarrierState {
    return {
      kind: 'smpp',
      bindsConfigured: this.binds.length,
      bindsUp: this.binds.filter((b) => b.status === 'bound').length,
      inFlight: this.binds.reduce((sum, b) => sum + b.inFlightCount, 0),
      submitted: this.submitted,
      throttled: this.throttled,
      reconnects: this.binds.reduce((sum, b) => sum + b.reconnects, 0),
    };
  }

  /**
   * Stops taking work, waits up to submitTimeoutMs for queued and unanswered parts, then unbinds. Parts
   * still unsent or unanswered then resolve with an error (not submitted, or outcome unknown).
   */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  /** close() for a carrier being replaced or taken out of service: gives back, never fails (see the class comment). */
  retire(): Promise<void> {
    if (!this.closing) this.returning = true;
    return this.close();
  }

  retired(): boolean {
    return this.returning;
  }

  private async shutdown(): Promise<void> {
    // Retired: its parts not yet sent go back now (their group sends them elsewhere); those out are waited for.
    if (this.returning) this.handBackQueued('carrier retired (updated, disabled or removed) before the part was sent');
    const deadline = Date.now() + this.options.submitTimeoutMs;
    while (this.pendingCount() > 0 && this.binds.some((b) => b.status === 'bound') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    this.stopped = true;
    this.pumpLater.cancel();
    if (this.returning) this.handBackQueued('carrier retired before the part was sent');
    for (const task of [...this.retryQueue.drain(), ...this.queue.drain()]) this.failure(task, 'carrier closed before the part was submitted');
    this.rejectStartWaiters(new Error('SMPP carrier closed'));
    await Promise.all(this.binds.map((b) => b.close()));
  }

  bindUp(): void {
    this.failedBeforeUp.clear();
    for (const waiter of this.startWaiters.splice(0)) waiter.resolve();
    this.pump();
  }

  bindDown(bind: SmppBind<PartTask>, unanswered: PartTask[], reason: string): void {
    const carrierDown = !this.anyBound();
    for (const task of unanswered) {
      if (this.returning) {
        settlePart(task, null, `no submit_sm_resp before the retired carrier's bind closed: ${reason}`, { outcome: 'in-doubt' });
      } else if (task.handBack && carrierDown && !this.stopped) {
        // In doubt: the SMSC may have taken it. Its group sends it through another member (see the class comment).
        settlePart(task, null, `no submit_sm_resp before the carrier went down: ${reason}`, { outcome: 'in-doubt' });
      } else if (this.stopped) {
        this.failure(task, `carrier closed before submit_sm_resp (outcome unknown): ${reason}`);
      } else if (++task.requeues > this.options.maxRequeues) {
        this.failure(task, `no submit_sm_resp after ${task.requeues} connection losses: ${reason}`);
      } else {
        this.retryQueue.push(task);
      }
    }
    if (carrierDown) {
      if (!this.stopped || this.returning) this.handBackQueued(`every bind is down: ${reason}`);
      this.failedBeforeUp.add(bind.index);
      if (this.failedBeforeUp.size === this.binds.length) {
        this.rejectStartWaiters(new Error(`SMPP carrier could not bind: ${bind.lastError ?? reason}`));
      }
    }
    this.pump();
  }

  submitAnswered(_bind: SmppBind<PartTask>, task: PartTask, status: number, messageId: string): void {
    const observer = this.options.observer;
    if (observer) {
      const at = this.sentAt.get(task);
      observer.answered(status, at === undefined ? null : (Date.now() - at) / 1000);
    }
    if (status === ESME_ROK) {
      this.submitted++;
      settlePart(task, messageId);
    } else if ((task.handBack || this.returning) && isTemporaryStatus(status) && (!this.stopped || this.returning)) {
      if (isThrottleStatus(status)) this.throttled++;
      settlePart(task, null, `submit_sm refused for now: ${describeStatus(status)}`, { outcome: 'temporary', errorCode: status });
    } else if (isThrottleStatus(status)) {
      this.throttled++;
      if (this.stopped) this.failure(task, `carrier closed before the part was accepted: ${describeStatus(status)}`);
      else this.retryQueue.push(task);
    } else {
      settlePart(task, null, `submit_sm rejected: ${describeStatus(status)}`, { outcome: 'permanent', errorCode: status });
    }
    this.pump();
  }

  deliverReceived(bind: SmppBind<PartTask>, body: Buffer, respond: (status: number) => void): void {
    const delivered = classifyDeliver(body, this.id, this.options.clock.now(), this.options.receiptUtcOffsetMinutes);
    const handlers = { receipt: this.receiptHandler, inbound: this.inboundHandler };
    handleDeliver(delivered, handlers, respond, this.options.logger, this.handlerFailures, { carrier: this.name, bind: bind.index });
  }

  private enqueue(message: OutboundMessage, handBack: boolean): Promise<SubmissionResult> {
    const { tasks, result } = partTasks(message, this.nextRef++ & 0xff, this.id, handBack);
    const addressing = this.options.sourceAddressing;
    if (addressing) for (const task of tasks) applySourceAddressing(task.params, addressing);
    for (const task of tasks) this.queue.push(task);
    return result;
  }

  /** Every part of these messages straight back as 'temporary': a retired carrier sends nothing more. */
  private giveBackAll(messages: OutboundMessage[]): Promise<SubmissionResult[]> {
    return Promise.all(
      messages.map((message) => {
        const { tasks, result } = partTasks(message, this.nextRef++ & 0xff, this.id, true);
        for (const task of tasks) settlePart(task, null, 'carrier retired (updated, disabled or removed) before the part was sent', { outcome: 'temporary' });
        return result;
      }),
    );
  }

  private anyBound(): boolean {
    return this.binds.some((b) => b.status === 'bound');
  }

  /**
   * The carrier is down: queued parts of a group go back to it (never sent, except those re-queued
   * after a lost bind, which are in doubt); the others wait here for a bind as before.
   */
  private handBackQueued(reason: string): void {
    for (const fifo of [this.retryQueue, this.queue]) {
      for (const task of fifo.drain()) {
        if (!task.handBack && !this.returning) fifo.push(task);
        else settlePart(task, null, `carrier down before the part was answered: ${reason}`, { outcome: task.requeues > 0 ? 'in-doubt' : 'temporary' });
      }
    }
  }

  /** Sends queued parts while some bind has room; otherwise waits for a resp, a bind, or a timer. */
  private pump(): void {
    if (this.pumping || this.stopped) return;
    this.pumping = true;
    try {
      while (this.retryQueue.length + this.queue.length > 0) {
        const now = Date.now();
        const pick = this.picker.pick(now);
        if (typeof pick === 'number') {
          if (Number.isFinite(pick)) this.pumpLater.within(Math.max(1, pick));
          return;
        }
        const task = (this.retryQueue.length > 0 ? this.retryQueue.shift() : this.queue.shift()) as PartTask;
        let sent: boolean;
        try {
          sent = pick.trySubmit(task, now);
        } catch (err) {
          // Parts are checked when they are made, so this is a fault of ours: the part fails, the rest go on.
          this.failure(task, `submit_sm could not be encoded: ${(err as Error).message}`);
          continue;
        }
        if (!sent) this.retryQueue.push(task);
        else if (this.options.observer) {
          this.sentAt.set(task, now);
          this.options.observer.submitted?.();
        }
      }
    } finally {
      this.pumping = false;
    }
  }

  private pendingCount(): number {
    return this.retryQueue.length + this.queue.length + this.binds.reduce((sum, b) => sum + b.inFlightCount, 0);
  }

  private failure(task: PartTask, error: string): void {
    settlePart(task, null, error);
  }

  private rejectStartWaiters(err: Error): void {
    for (const waiter of this.startWaiters.splice(0)) waiter.reject(err);
  }
}
