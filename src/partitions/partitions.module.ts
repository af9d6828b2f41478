import { Module } from '@nestjs/common';
import { PartitionMaintenanceRepository } from './partition-maintenance.repository';
import { PARTITIONED_TABLE_LIST, PartitionMaintenanceService } from './partition-maintenance.service';
import { PARTITIONED_TABLES } from './partitioned-tables';

/** The partition maintenance of PARTITIONED_TABLES (run as periodic work by the worker role). */
@Module({
  providers: [PartitionMaintenanceRepository, PartitionMaintenanceService, { provide: PARTITIONED_TABLE_LIST, useValue: PARTITIONED_TABLES }],
  exports: [PartitionMaintenanceService],
})
export class PartitionsModule {}
