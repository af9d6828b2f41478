import type { QueueDepth } from '../queues/queue-depth';
import type { CarrierStatus } from '../delivery/status/carrier-state';
import type { DispatchStatus } from '../delivery/status/dispatch-status.service';

export interface HealthReport {
  status: 'ok' | 'degraded';
  database: 'up';
  redis: 'up';
  dispatch: { queue: QueueDepth; oldest_due_seconds: number };
  carrier?: {
    kind: string;
    binds_configured: number;
    binds_up: number;
    in_flight: number;
    carriers: Array<{ id: number; name: string; state: string; reason: string | null; binds_configured: number; binds_up: number; in_flight: number }>;
    waiting_for_carrier: { messages: number; parts: number };
  };
  problems: string[];
}

export function toHealthReport(dispatch: DispatchStatus, carrier: CarrierStatus | undefined, problems: string[]): HealthReport {
  return {
    status: problems.length ? 'degraded' : 'ok',
    database: 'up',
    redis: 'up',
    dispatch: { queue: dispatch.queue, oldest_due_seconds: dispatch.oldestDueSeconds },
    ...(carrier
      ? {
          carrier: {
            kind: carrier.kind,
            binds_configured: carrier.bindsConfigured,
            binds_up: carrier.bindsUp,
            in_flight: carrier.inFlight,
            carriers: carrier.carriers.map((c) => ({
              id: c.id,
              name: c.name,
              state: c.state,
              reason: c.reason,
              binds_configured: c.bindsConfigured,
              binds_up: c.bindsUp,
              in_flight: c.inFlight,
            })),
            waiting_for_carrier: carrier.waiting,
          },
        }
      : {}),
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
