import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { CONTACT_IMPORT_QUEUE, ContactImportQueue } from './contact-import-queue';
import { DISPATCH_QUEUE, DispatchQueue } from './dispatch-queue';
import { WEBHOOK_QUEUE, WebhookQueue } from './webhook-queue';
import { BALANCE_QUEUE, BalanceQueue } from './balance-queue';
import { JobIntake } from './job-intake';

/**
 * The Bull root and its queues, behind typed wrappers (rule 7): producers for the API (enqueue after
 * commit) and consumers for the workers. Nothing outside this folder touches Bull.
 */
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({ url: config.redisUrl, prefix: `${config.redisPrefix}:bull` }),
    }),
    BullModule.registerQueue({ name: DISPATCH_QUEUE }, { name: WEBHOOK_QUEUE }, { name: BALANCE_QUEUE }),
    // An import job runs for seconds to minutes: a killed worker's job is found stalled (and run again,
    // resuming from its committed chunks) once its lock lapses, checked as often as the lock lasts.
    BullModule.registerQueueAsync({
      name: CONTACT_IMPORT_QUEUE,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({ settings: { lockDuration: config.contactImportLockMs, stalledInterval: config.contactImportLockMs } }),
    }),
  ],
  providers: [DispatchQueue, WebhookQueue, ContactImportQueue, BalanceQueue, JobIntake],
  exports: [DispatchQueue, WebhookQueue, ContactImportQueue, BalanceQueue],
})
export class QueuesModule {}
