import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bull';
import { addJobOrLeaveToSweeper } from './add-job';
import { consume } from './queue-depth';

export const CONTACT_IMPORT_QUEUE = 'contact-imports';
const JOB_RUN_IMPORT = 'run-import';

export interface ContactImportJob {
  accountId: number;
  importId: number;
}

/**
 * Contact import jobs (rule 7: Bull stays behind this wrapper). The import and its progress live in
 * PostgreSQL; a job only says "run import N", under a deterministic id, so enqueueing it again while it
 * waits or runs adds nothing, and a lost job is found again by the sweep.
 */
@Injectable()
export class ContactImportQueue {
  private readonly logger = new Logger(ContactImportQueue.name);

  constructor(@InjectQueue(CONTACT_IMPORT_QUEUE) private readonly queue: Queue) {}

  async enqueue(job: ContactImportJob): Promise<void> {
    await addJobOrLeaveToSweeper(this.queue, this.logger, JOB_RUN_IMPORT, job, {
      jobId: `import-${job.importId}`,
      attempts: 5,
      backoff: { type: 'exponential', delay: 1000 },
    });
  }

  /** Worker side. */
  consume(concurrency: number, run: (job: ContactImportJob) => Promise<unknown>): void {
    consume<ContactImportJob>(this.queue, JOB_RUN_IMPORT, concurrency, run, (err) => this.logger.error({ msg: 'contact import processor stopped', err: err.message }));
  }
}
