import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A dispatcher process that is alive: the batches it is working on, refreshed every few seconds. */
@Entity({ name: 'dispatcher_leases' })
export class DispatcherLease {
  @PrimaryColumn({ name: 'dispatcher_id', type: 'uuid' })
  dispatcherId: string;

  /** The dispatch batches (`dispatch_batches`) it is working on. */
  @Column({ name: 'active_batches', type: 'uuid', array: true, default: () => "'{}'" })
  activeBatches: string[];

  @Column({ name: 'started_at', type: 'timestamptz', default: () => 'now()' })
  startedAt: Date;

  @Column({ name: 'heartbeat_at', type: 'timestamptz', default: () => 'now()' })
  heartbeatAt: Date;
}
