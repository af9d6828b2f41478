import { Injectable, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { DispatchQueue } from '../../queues/dispatch-queue';
import { DispatcherService } from './dispatcher.service';
import { SweeperService } from './sweeper.service';

/** Consumer side of the dispatch queue: each job calls one service method (rule 7). */
@Injectable()
export class DispatchProcessor implements OnModuleInit {
  constructor(
    private readonly queue: DispatchQueue,
    private readonly dispatcher: DispatcherService,
    private readonly sweeper: SweeperService,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.queue.consume({
      concurrency: this.config.dispatchConcurrency,
      dispatchSend: (sendId) => this.dispatcher.dispatchSend(sendId),
      simulatedReceipts: () => this.sweeper.applySimulatedReceipts(),
    });
  }
}
