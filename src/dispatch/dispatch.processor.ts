import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { AppConfig } from '../config/app-config';
import { DISPATCH_QUEUE, DispatchSendJob, JOB_DISPATCH_SEND, JOB_SIMULATED_RECEIPTS } from './dispatch-queue';
import { DispatcherService } from './dispatcher.service';
import { SweeperService } from './sweeper.service';

/** Consumer side of the dispatch queue: unpacks a job and calls one service method (rule 7). */
@Injectable()
export class DispatchProcessor implements OnModuleInit {
  private readonly logger = new Logger(DispatchProcessor.name);

  constructor(
    @InjectQueue(DISPATCH_QUEUE) private readonly queue: Queue,
    private readonly dispatcher: DispatcherService,
    private readonly sweeper: SweeperService,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    // Concurrency comes from configuration, so handlers are registered here rather than by decorator.
    this.queue
      .process(JOB_DISPATCH_SEND, this.config.dispatchConcurrency, (job: Job<DispatchSendJob>) => this.dispatcher.dispatchSend(job.data.sendId))
      .catch((err: Error) => this.logger.error({ msg: 'dispatch processor stopped', err: err.message }));
    this.queue
      .process(JOB_SIMULATED_RECEIPTS, 1, () => this.sweeper.applySimulatedReceipts())
      .catch((err: Error) => this.logger.error({ msg: 'simulated receipt processor stopped', err: err.message }));
  }
}
