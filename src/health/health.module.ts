import { DynamicModule, Module, Type } from '@nestjs/common';
import { DispatchStatusModule } from '../delivery/status/dispatch-status.module';
import { HealthController } from './health.controller';
import { HealthService } from './health.service';

/**
 * /health. Where the delivery workers run in this process, the composition root passes their module,
 * which provides CARRIER_STATUS, so the answer includes the SMPP binds.
 */
@Module({})
export class HealthModule {
  static register(options: { carrierStatusFrom?: Type | DynamicModule; controllers?: boolean } = {}): DynamicModule {
    return {
      module: HealthModule,
      imports: [DispatchStatusModule, ...(options.carrierStatusFrom ? [options.carrierStatusFrom] : [])],
      controllers: options.controllers === false ? [] : [HealthController],
      providers: [HealthService],
      exports: [HealthService],
    };
  }
}
