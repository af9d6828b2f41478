import { Module } from '@nestjs/common';
import { PurchaseJobs } from './purchase-jobs';
import { PurchasesModule } from './purchases.module';

/** The periodic reconciler and renewal job: in serving processes, not in the operator CLI (which runs them on demand). */
@Module({ imports: [PurchasesModule], providers: [PurchaseJobs] })
export class PurchaseJobsModule {}
