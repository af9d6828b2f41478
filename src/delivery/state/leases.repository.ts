import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../../database/sql';

/** A dispatcher's lease ($1 dispatcher, $2 its batches): one small row, however many claims. */
export const RENEW_LEASE = `INSERT INTO dispatcher_leases (dispatcher_id, active_batches) VALUES ($1, $2::uuid[])
  ON CONFLICT (dispatcher_id) DO UPDATE SET active_batches = EXCLUDED.active_batches, heartbeat_at = now()`;

/** Dispatcher leases: which batches each live dispatcher is working on (the sweeper never takes those back). */
@Injectable()
export class LeasesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** This dispatcher is alive and working on these batches. */
  async renewLease(dispatcherId: string, activeBatches: string[]): Promise<void> {
    await sql(this.dataSource, RENEW_LEASE, [dispatcherId, activeBatches]);
  }

  async dropLease(dispatcherId: string): Promise<void> {
    await sql(this.dataSource, `DELETE FROM dispatcher_leases WHERE dispatcher_id = $1`, [dispatcherId]);
  }

  /** Leases of dispatchers gone for an hour (crashed, so never dropped): nothing can refer to them any more. */
  async forgetDeadLeases(): Promise<void> {
    await sql(this.dataSource, `DELETE FROM dispatcher_leases WHERE heartbeat_at < now() - interval '1 hour'`);
  }
}
