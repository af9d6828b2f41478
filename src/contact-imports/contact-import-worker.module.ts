import { Injectable, Module, OnModuleInit } from '@nestjs/common';
import { ContactImportQueue } from '../queues/contact-import-queue';
import { QueuesModule } from '../queues/queues.module';
import { ContactImportRunner } from './contact-import-runner';
import { ContactImportsModule } from './contact-imports.module';

/**
 * Imports run one at a time per worker process: each is a stream of large set-based transactions, and a
 * second one at once would only contend with the first and with the dispatch path for the same disk.
 */
const IMPORT_CONCURRENCY = 1;

/** Consumer of the contact import queue (the sweep that re-enqueues lost jobs is periodic work of the worker role). */
@Injectable()
class ContactImportProcessor implements OnModuleInit {
  constructor(
    private readonly queue: ContactImportQueue,
    private readonly runner: ContactImportRunner,
  ) {}

  onModuleInit(): void {
    this.queue.consume(IMPORT_CONCURRENCY, (job) => this.runner.run(job.accountId, job.importId));
  }
}

@Module({ imports: [QueuesModule, ContactImportsModule], providers: [ContactImportProcessor] })
export class ContactImportWorkerModule {}
