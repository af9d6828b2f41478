import { Module } from '@nestjs/common';
import { CARRIER_STATUS, CarrierStatusReader } from '../status/carrier-state';
import { DispatchStatusModule } from '../status/dispatch-status.module';
import { QueuesModule } from '../../queues/queues.module';
import { WebhooksModule } from '../../webhooks/webhooks.module';
import { CarriersModule } from '../../carriers/carriers.module';
import { CarrierStatusModule } from '../../carriers/carrier-status.module';
import { CarrierMetrics } from './carrier-metrics';
import { CarriersService } from './carriers.service';
import { DeliveryMetrics } from './delivery-metrics';
import { DeliveryRecordsService } from './delivery-records.service';
import { DispatchProcessor } from './dispatch.processor';
import { DispatcherService } from './dispatcher.service';
import { ClaimsRepository } from '../state/claims.repository';
import { LeasesRepository } from '../state/leases.repository';
import { SweepRepository } from '../state/sweep.repository';
import { OutcomesRepository } from '../state/outcomes.repository';
import { ReceiptsRepository } from '../state/receipts.repository';
import { ReceiptIntakeService } from './receipt-intake.service';
import { ReceiptWaitsRepository } from '../state/receipt-waits.repository';
import { ReceiptWaitsService } from './receipt-waits.service';
import { SweeperService } from './sweeper.service';

/** The dispatch worker: dispatch jobs, carriers, receipts and the sweeper. */
@Module({
  imports: [QueuesModule, WebhooksModule, DispatchStatusModule, CarriersModule, CarrierStatusModule],
  providers: [
    ClaimsRepository,
    LeasesRepository,
    SweepRepository,
    OutcomesRepository,
    ReceiptsRepository,
    ReceiptWaitsRepository,
    CarriersService,
    CarrierMetrics,
    DeliveryMetrics,
    DeliveryRecordsService,
    DispatcherService,
    ReceiptIntakeService,
    ReceiptWaitsService,
    SweeperService,
    DispatchProcessor,
    {
      provide: CARRIER_STATUS,
      inject: [CarriersService],
      useFactory: (carriers: CarriersService): CarrierStatusReader => ({ status: () => carriers.liveStatus() }),
    },
  ],
  exports: [CarriersService, DispatcherService, SweeperService, ReceiptIntakeService, ReceiptWaitsService, DeliveryRecordsService, CARRIER_STATUS],
})
export class DispatchWorkerModule {}
