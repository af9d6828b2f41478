import { Controller, DynamicModule, Get, Global, Header, Module } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../common/auth/public.decorator';
import { HttpMetrics } from './http-metrics';
import { MetricsRegistry } from './metrics-registry';

@ApiExcludeController()
@Controller('metrics')
class MetricsController {
  constructor(private readonly metrics: MetricsRegistry) {}

  @Public()
  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  render() {
    return this.metrics.render();
  }
}

/** Prometheus metrics at GET /metrics (no auth); METRICS_ENABLED=false leaves the route out. */
@Global()
@Module({})
export class MetricsModule {
  static register(enabled: boolean): DynamicModule {
    return { module: MetricsModule, controllers: enabled ? [MetricsController] : [], providers: [MetricsRegistry, HttpMetrics], exports: [MetricsRegistry, HttpMetrics] };
  }
}
