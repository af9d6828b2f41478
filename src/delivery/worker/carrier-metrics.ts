import { Injectable } from '@nestjs/common';
import { Counter, Histogram } from 'prom-client';
import { MetricsRegistry } from '../../metrics/metrics-registry';
import { ESME_ROK, STATUS } from '../../smpp/commands';
import type { SmppObserver } from './carriers/smpp/smpp-options';
import { isThrottleStatus } from './carriers/smpp/smpp-bind';

/** Answers and errors of one carrier since the last status report (carrier:status's rate and error share). */
export interface IntervalCounts {
  submits: number;
  answers: number;
  errors: number;
}

/** The `status` label of an answer: ok, the temporary refusals by name, else the command_status in hex (a bounded set). */
export function answerLabel(status: number): string {
  if (status === ESME_ROK) return 'ok';
  if (status === STATUS.ESME_RTHROTTLED) return 'throttled';
  if (status === STATUS.ESME_RMSGQFUL) return 'queue_full';
  if (status === STATUS.ESME_RSYSERR) return 'system_error';
  return `0x${status.toString(16).padStart(8, '0')}`;
}

/**
 * Per-carrier series for GET /metrics, labelled by carrier name: submits sent, answers by status (every submit_sm_resp;
 * their sum is the submits answered), throttles, answer latency, receipts by final state, and the delivery
 * ratio (delivered over final receipts since the worker started). Binds, in-flight parts and up/down are
 * gauges read from the carriers at scrape time (CarriersService).
 */
@Injectable()
export class CarrierMetrics {
  private readonly submits: Counter;
  private readonly answers: Counter;
  private readonly throttles: Counter;
  private readonly latency: Histogram;
  private readonly receipts: Counter;
  private readonly finals = new Map<string, { delivered: number; failed: number }>();
  private readonly intervals = new Map<number, IntervalCounts>();

  constructor(registry: MetricsRegistry) {
    this.submits = registry.counter('sms_carrier_submits_total', 'submit_sm sent (re-sends too), by carrier', ['carrier']);
    this.answers = registry.counter('sms_carrier_answers_total', 'submit_sm answers by carrier and status (ok, throttled, queue_full, system_error, or the command_status)', [
      'carrier',
      'status',
    ]);
    this.throttles = registry.counter('sms_carrier_throttles_total', 'submit_sm answered throttled or queue full, by carrier', ['carrier']);
    this.latency = registry.histogram(
      'sms_carrier_answer_seconds',
      'Time from submit_sm to its answer, by carrier',
      [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      ['carrier'],
    );
    this.receipts = registry.counter('sms_carrier_receipts_total', 'Final receipts stored, by carrier and state', ['carrier', 'state']);
    const finals = this.finals;
    registry.gauge('sms_carrier_delivery_ratio', 'Delivered over final receipts since this worker started, by carrier', ['carrier'], function () {
      for (const [carrier, f] of finals) if (f.delivered + f.failed > 0) this.set({ carrier }, f.delivered / (f.delivered + f.failed));
    });
  }

  /** What an SmppCarrier tells about its answers. */
  observerFor(id: number, name: string): SmppObserver {
    const counts = this.interval(id);
    this.submits.inc({ carrier: name }, 0);
    this.answers.inc({ carrier: name, status: 'ok' }, 0);
    this.throttles.inc({ carrier: name }, 0);
    return {
      submitted: () => {
        counts.submits++;
        this.submits.inc({ carrier: name });
      },
      answered: (status, seconds) => {
        counts.answers++;
        if (status !== ESME_ROK) counts.errors++;
        this.answers.inc({ carrier: name, status: answerLabel(status) });
        if (isThrottleStatus(status)) this.throttles.inc({ carrier: name });
        if (seconds !== null) this.latency.observe({ carrier: name }, seconds);
      },
    };
  }

  receiptStored(name: string, state: 'delivered' | 'failed'): void {
    this.receipts.inc({ carrier: name, state });
    const f = this.finals.get(name) ?? { delivered: 0, failed: 0 };
    f[state]++;
    this.finals.set(name, f);
  }

  /** The counts since the last call, reset. */
  takeInterval(id: number): IntervalCounts {
    const counts = this.interval(id);
    const taken = { ...counts };
    counts.submits = 0;
    counts.answers = 0;
    counts.errors = 0;
    return taken;
  }

  private interval(id: number): IntervalCounts {
    let counts = this.intervals.get(id);
    if (!counts) this.intervals.set(id, (counts = { submits: 0, answers: 0, errors: 0 }));
    return counts;
  }
}
