import type { QueueDepth } from '../queues/queue-depth';
import type { CarrierStatus } from '../delivery/status/carrier-state';
import type { DispatchStatus } from '../delivery/status/dispatch-status.service';

export interface HealthReport {
  status: 'ok' | 'degraded';
  database: 'up';
  redis: 'up';
  dispatch: { queue: QueueDepth; oldest_due_seconds: number };
  carrier?: { kind: string; binds_configured: number; binds_up: number; in_flight: number };
  problems: string[];
}

export function toHealthReport(dispatch: DispatchStatus, carrier: CarrierStatus | undefined, problems: string[]): HealthReport {
  return {
    status: problems.length ? 'degraded' : 'ok',
    database: 'up',
    redis: 'up',
    dispatch: { queue: dispatch.queue, oldest_due_seconds: dispatch.oldestDueSeconds },
    ...(carrier ? { carrier: { kind: carrier.kind, binds_configured: carrier.bindsConfigured, binds_up: carrier.bindsUp, in_flight: carrier.inFlight } } : {}),
    problems,
  };
}

/** GET /health/live: the process is up and answering; it checks nothing else (that is /health's job). */
export interface LivenessReport {
  status: 'ok';
}

export function toLivenessReport(): LivenessReport {
  return { status: 'ok' };
}
