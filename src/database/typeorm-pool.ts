import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';

/** The pg pool under TypeORM's PostgreSQL driver (its primary's; this service has no read replicas). */
export function poolOf(dataSource: DataSource): Pool {
  return (dataSource.driver as unknown as { master: Pool }).master;
}
