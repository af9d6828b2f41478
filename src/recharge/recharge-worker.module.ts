import { Injectable, Module, OnModuleInit } from '@nestjs/common';
import { BalanceQueue } from '../queues/balance-queue';
import { QueuesModule } from '../queues/queues.module';
import { CrossingHandler } from './crossing-handler.service';
import { RechargeModule } from './recharge.module';

/** Crossings are rare and each is one purchase or one mail: two at a time per worker is plenty. */
const CROSSING_CONCURRENCY = 2;

/** Consumer of the balance queue (the sweep for crossings whose job was lost is periodic work of the worker role). */
@Injectable()
class BalanceProcessor implements OnModuleInit {
  constructor(
    private readonly queue: BalanceQueue,
    private readonly crossings: CrossingHandler,
  ) {}

  onModuleInit(): void {
    this.queue.consume(CROSSING_CONCURRENCY, (crossingId) => this.crossings.handle(crossingId));
  }
}

@Module({
  imports: [QueuesModule, RechargeModule],
  providers: [BalanceProcessor],
})
export class RechargeWorkerModule {}
