import { Injectable } from '@nestjs/common';
import { Counter, Histogram } from 'prom-client';
import { MetricsRegistry } from './metrics-registry';

/** Requests that matched no route share one label, so probing random paths cannot grow the series. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Request counts by route, method and status, and latency by route and method, for GET /metrics. */
@Injectable()
export class HttpMetrics {
  private readonly requests: Counter;
  private readonly duration: Histogram;

  constructor(registry: MetricsRegistry) {
    this.requests = registry.counter('http_requests_total', 'HTTP requests answered, by route template, method and status', ['route', 'method', 'status']);
    this.duration = registry.histogram(
      'http_request_duration_seconds',
      'Time from receiving a request to finishing its answer, by route template and method',
      [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      ['route', 'method'],
    );
  }

  /** Exports every known route at 0 (its success series and its latency), before any request. */
  routesKnown(routes: Iterable<{ route: string; method: string }>): void {
    for (const { route, method } of routes) {
      this.requests.inc({ route, method, status: '200' }, 0);
      this.duration.zero({ route, method });
    }
  }

  observe(route: string | undefined, method: string, status: number, seconds: number): void {
    const labels = { route: route ?? UNMATCHED_ROUTE, method };
    this.requests.inc({ ...labels, status: String(status) });
    this.duration.observe(labels, seconds);
  }
}
