import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** One Prometheus registry per app instance (not prom-client's global one, so test apps do not collide). */
@Injectable()
export class MetricsRegistry {
  readonly registry = new Registry();

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  counter(name: string, help: string, labelNames: string[] = []): Counter {
    return (this.registry.getSingleMetric(name) as Counter) ?? new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  gauge(name: string, help: string, labelNames: string[] = [], collect?: (this: Gauge) => void | Promise<void>): Gauge {
    return (this.registry.getSingleMetric(name) as Gauge) ?? new Gauge({ name, help, labelNames, registers: [this.registry], collect });
  }

  histogram(name: string, help: string, buckets: number[]): Histogram {
    return (this.registry.getSingleMetric(name) as Histogram) ?? new Histogram({ name, help, buckets, registers: [this.registry] });
  }

  async render(): Promise<string> {
    return this.registry.metrics();
  }
}
