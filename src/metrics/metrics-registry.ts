import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, LabelValues, Registry } from 'prom-client';

/** One Prometheus registry per app instance (not prom-client's global one, so test apps do not collide). */
@Injectable()
export class MetricsRegistry {
  readonly registry = new Registry();

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /**
   * A counter. Labelled counters are exported at 0 for every label set in `initial`, so a rate over a
   * series works from the first scrape instead of appearing with its first event.
   */
  counter(name: string, help: string, labelNames: string[] = [], initial: Array<LabelValues<string>> = []): Counter {
    const counter = (this.registry.getSingleMetric(name) as Counter) ?? new Counter({ name, help, labelNames, registers: [this.registry] });
    for (const labels of initial) counter.inc(labels, 0);
    return counter;
  }

  gauge(name: string, help: string, labelNames: string[] = [], collect?: (this: Gauge) => void | Promise<void>): Gauge {
    return (this.registry.getSingleMetric(name) as Gauge) ?? new Gauge({ name, help, labelNames, registers: [this.registry], collect });
  }

  histogram(name: string, help: string, buckets: number[], labelNames: string[] = []): Histogram {
    return (this.registry.getSingleMetric(name) as Histogram) ?? new Histogram({ name, help, buckets, labelNames, registers: [this.registry] });
  }

  async render(): Promise<string> {
    return this.registry.metrics();
  }
}
