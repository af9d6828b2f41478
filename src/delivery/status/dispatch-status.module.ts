import { Module } from '@nestjs/common';
import { QueuesModule } from '../../queues/queues.module';
import { BacklogRepository } from '../state/backlog.repository';
import { DispatchStatusService } from './dispatch-status.service';

/** The dispatch backlog reader, shared by /health and the sweeper's stall log. */
@Module({
  imports: [QueuesModule],
  providers: [BacklogRepository, DispatchStatusService],
  exports: [DispatchStatusService],
})
export class DispatchStatusModule {}
